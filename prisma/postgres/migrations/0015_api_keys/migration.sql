-- Named API keys with scopes (issue 23). Each account's one key becomes its key "Default" with every scope;
-- its encrypted copy moves to api_key.sealed, so the account can reveal it once more, and then never again.

-- CreateTable
CREATE TABLE "api_key" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "prefix" TEXT,
    "scopes" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMP(3),
    "expires_at" TIMESTAMP(3),
    "revoked_at" TIMESTAMP(3),
    "sealed" TEXT,

    CONSTRAINT "api_key_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "api_key_key_hash_key" ON "api_key"("key_hash");

-- CreateIndex
CREATE INDEX "api_key_account_id_created_at_idx" ON "api_key"("account_id", "created_at");

-- AddForeignKey
ALTER TABLE "api_key" ADD CONSTRAINT "api_key_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The carried-over keys.
INSERT INTO "api_key" ("id", "account_id", "name", "key_hash", "scopes", "sealed")
SELECT 'key_' || substr(md5(random()::text || "id"), 1, 24), "id", 'Default', "api_key_hash",
       'counts:read bulk:read bulk:write tracked:read tracked:write account:read account:write keys:write', "api_key_encrypted"
FROM "account";

-- The account keeps no key of its own any more; its trigger named the key column, so it is made again without it.
DROP TRIGGER account_changed ON "account";
DROP INDEX "account_api_key_hash_key";
ALTER TABLE "account" DROP COLUMN "api_key_encrypted",
DROP COLUMN "api_key_hash";
CREATE TRIGGER account_changed AFTER DELETE OR UPDATE OF plan_name, whitelist_enabled, networks ON "account"
  FOR EACH STATEMENT EXECUTE FUNCTION sharecount_accounts_changed();

-- A created, rolled, expiring or revoked key reaches every API process's account cache at once (not last_used_at,
-- which is written every half minute and changes nothing the API decides).
CREATE TRIGGER api_key_changed AFTER INSERT OR DELETE OR UPDATE OF key_hash, scopes, expires_at, revoked_at ON "api_key"
  FOR EACH STATEMENT EXECUTE FUNCTION sharecount_accounts_changed();
