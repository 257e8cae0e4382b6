-- Mail: the outbox, single-use links sent by mail (only their hashes), and the browsers an account signed in from.
-- CreateTable
CREATE TABLE "mail_message" (
    "id" TEXT NOT NULL,
    "account_id" TEXT,
    "kind" TEXT NOT NULL,
    "recipient" TEXT NOT NULL,
    "payload" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "due_at" TIMESTAMP(3) NOT NULL,
    "lease_owner" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL,
    "sent_at" TIMESTAMP(3),
    "last_error" TEXT,

    CONSTRAINT "mail_message_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "account_token" (
    "token_hash" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "email" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "used_at" TIMESTAMP(3),

    CONSTRAINT "account_token_pkey" PRIMARY KEY ("token_hash")
);

-- CreateTable
CREATE TABLE "sign_in_device" (
    "account_id" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "first_seen_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "sign_in_device_pkey" PRIMARY KEY ("account_id","fingerprint")
);

-- CreateIndex
CREATE INDEX "mail_message_status_due_at_idx" ON "mail_message"("status", "due_at");

-- CreateIndex
CREATE INDEX "mail_message_account_id_idx" ON "mail_message"("account_id");

-- CreateIndex
CREATE INDEX "account_token_account_id_purpose_idx" ON "account_token"("account_id", "purpose");

-- AddForeignKey
ALTER TABLE "mail_message" ADD CONSTRAINT "mail_message_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "account_token" ADD CONSTRAINT "account_token_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sign_in_device" ADD CONSTRAINT "sign_in_device_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

