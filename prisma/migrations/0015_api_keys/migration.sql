-- Named API keys with scopes (issue 23). Each account's one key becomes its key "Default" with every scope;
-- its encrypted copy moves to api_key.sealed, so the account can reveal it once more, and then never again.

-- CreateTable
CREATE TABLE "api_key" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "account_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "prefix" TEXT,
    "scopes" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" DATETIME,
    "expires_at" DATETIME,
    "revoked_at" DATETIME,
    "sealed" TEXT,
    CONSTRAINT "api_key_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "api_key_key_hash_key" ON "api_key"("key_hash");

-- CreateIndex
CREATE INDEX "api_key_account_id_created_at_idx" ON "api_key"("account_id", "created_at");

-- The carried-over keys (created_at in Prisma's ISO text form, as the rest of the table).
INSERT INTO "api_key" ("id", "account_id", "name", "key_hash", "scopes", "created_at", "sealed")
SELECT 'key_' || lower(hex(randomblob(12))), "id", 'Default', "api_key_hash",
       'counts:read bulk:read bulk:write tracked:read tracked:write account:read account:write keys:write',
       strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), "api_key_encrypted"
FROM "account";

-- The account keeps no key of its own any more.
DROP INDEX "account_api_key_hash_key";
ALTER TABLE "account" DROP COLUMN "api_key_hash";
ALTER TABLE "account" DROP COLUMN "api_key_encrypted";
