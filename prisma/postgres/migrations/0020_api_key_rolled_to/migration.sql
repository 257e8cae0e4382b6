-- A rolled key names the key that replaced it: a key is rolled once (a second roll answers 409 key_not_rollable).
-- AlterTable
ALTER TABLE "api_key" ADD COLUMN "rolled_to" TEXT;

-- Keys rolled before this column existed, from the audit log's key.rolled events (a rolled key stops within 7 days,
-- so the log still has every one that could be rolled again).
UPDATE "api_key" SET "rolled_to" = (
  SELECT "audit_event"."changes"::json ->> 'new_id' FROM "audit_event"
  WHERE "audit_event"."account_id" = "api_key"."account_id" AND "audit_event"."action" = 'key.rolled'
    AND "audit_event"."changes"::json ->> 'id' = "api_key"."id" AND "audit_event"."changes"::json ->> 'new_id' IS NOT NULL
  LIMIT 1
);
