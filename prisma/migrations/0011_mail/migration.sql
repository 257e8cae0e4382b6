-- Mail: the outbox, single-use links sent by mail (only their hashes), and the browsers an account signed in from.
-- CreateTable
CREATE TABLE "mail_message" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "account_id" TEXT,
    "kind" TEXT NOT NULL,
    "recipient" TEXT NOT NULL,
    "payload" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "due_at" DATETIME NOT NULL,
    "lease_owner" TEXT,
    "created_at" DATETIME NOT NULL,
    "sent_at" DATETIME,
    "last_error" TEXT,
    CONSTRAINT "mail_message_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "account_token" (
    "token_hash" TEXT NOT NULL PRIMARY KEY,
    "account_id" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "email" TEXT,
    "created_at" DATETIME NOT NULL,
    "expires_at" DATETIME NOT NULL,
    "used_at" DATETIME,
    CONSTRAINT "account_token_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "sign_in_device" (
    "account_id" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "first_seen_at" DATETIME NOT NULL,

    PRIMARY KEY ("account_id", "fingerprint"),
    CONSTRAINT "sign_in_device_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "mail_message_status_due_at_idx" ON "mail_message"("status", "due_at");

-- CreateIndex
CREATE INDEX "mail_message_account_id_idx" ON "mail_message"("account_id");

-- CreateIndex
CREATE INDEX "account_token_account_id_purpose_idx" ON "account_token"("account_id", "purpose");

