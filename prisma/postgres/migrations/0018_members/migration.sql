-- AlterTable
ALTER TABLE "session" ADD COLUMN     "active_account_id" TEXT;

-- CreateTable
CREATE TABLE "account_member" (
    "account_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "account_member_pkey" PRIMARY KEY ("account_id","user_id")
);

-- CreateTable
CREATE TABLE "account_invite" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "invited_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "accepted_at" TIMESTAMP(3),
    "accepted_by" TEXT,
    "revoked_at" TIMESTAMP(3),

    CONSTRAINT "account_invite_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "account_member_user_id_idx" ON "account_member"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "account_invite_token_hash_key" ON "account_invite"("token_hash");

-- CreateIndex
CREATE INDEX "account_invite_account_id_created_at_idx" ON "account_invite"("account_id", "created_at");

-- AddForeignKey
ALTER TABLE "account_member" ADD CONSTRAINT "account_member_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "account_member" ADD CONSTRAINT "account_member_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "account_invite" ADD CONSTRAINT "account_invite_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Every existing sign-in owns its own account, as a new one will.
INSERT INTO "account_member" ("account_id", "user_id", "role", "created_at") SELECT "id", "id", 'owner', "created_at" FROM "account";
