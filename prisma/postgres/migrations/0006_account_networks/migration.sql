-- The networks an account shows and asks (API v2 and the dashboard): ids, comma-separated; NULL: every
-- network the service asks.
ALTER TABLE "account" ADD COLUMN "networks" TEXT;

-- The API caches it with the account: a change must reach the listening API processes like a whitelist edit.
DROP TRIGGER account_changed ON "account";
CREATE TRIGGER account_changed AFTER DELETE OR UPDATE OF api_key_hash, plan_name, whitelist_enabled, networks ON "account"
  FOR EACH STATEMENT EXECUTE FUNCTION sharecount_accounts_changed();

-- A bulk job submitted through API v2: the networks it asks (ids, comma-separated); NULL: a v1 job
-- (Facebook and Pinterest, answered as count objects).
ALTER TABLE "bulk_job" ADD COLUMN "networks" TEXT;
