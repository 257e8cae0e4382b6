-- AlterTable
ALTER TABLE "session" ADD COLUMN "active_account_id" TEXT;

-- CreateTable
CREATE TABLE "account_member" (
    "account_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL,

    PRIMARY KEY ("account_id", "user_id"),
    CONSTRAINT "account_member_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "account_member_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "account" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "account_invite" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "account_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "invited_by" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL,
    "expires_at" DATETIME NOT NULL,
    "accepted_at" DATETIME,
    "accepted_by" TEXT,
    "revoked_at" DATETIME,
    CONSTRAINT "account_invite_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "account_member_user_id_idx" ON "account_member"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "account_invite_token_hash_key" ON "account_invite"("token_hash");

-- CreateIndex
CREATE INDEX "account_invite_account_id_created_at_idx" ON "account_invite"("account_id", "created_at");


-- Every existing sign-in owns its own account, as a new one will.
INSERT INTO "account_member" ("account_id", "user_id", "role", "created_at") SELECT "id", "id", 'owner', "created_at" FROM "account";
