-- CreateTable
CREATE TABLE "event" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "account_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "data" TEXT NOT NULL,
    "once_key" TEXT,
    "created_at" DATETIME NOT NULL,
    CONSTRAINT "event_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "alert_settings" (
    "account_id" TEXT NOT NULL PRIMARY KEY,
    "email_events" TEXT,
    "digest" BOOLEAN NOT NULL DEFAULT true,
    "spike_min_increase" INTEGER NOT NULL DEFAULT 100,
    "spike_ratio" REAL NOT NULL DEFAULT 2,
    "digest_week" TEXT,
    CONSTRAINT "alert_settings_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "webhook_endpoint" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "account_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "events" TEXT NOT NULL,
    "format" TEXT NOT NULL DEFAULT 'standard',
    "description" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "secret" TEXT NOT NULL,
    "previous_secret" TEXT,
    "previous_secret_until" DATETIME,
    "created_at" DATETIME NOT NULL,
    "last_success_at" DATETIME,
    "failing_since" DATETIME,
    "disabled_reason" TEXT,
    CONSTRAINT "webhook_endpoint_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "webhook_delivery" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "endpoint_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "due_at" DATETIME NOT NULL,
    "lease_owner" TEXT,
    "created_at" DATETIME NOT NULL,
    CONSTRAINT "webhook_delivery_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoint" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "webhook_delivery_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "event" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "webhook_attempt" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "delivery_id" TEXT NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "status_code" INTEGER,
    "ok" BOOLEAN NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "error" TEXT,
    "created_at" DATETIME NOT NULL,
    "next_attempt_at" DATETIME,
    CONSTRAINT "webhook_attempt_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "webhook_delivery" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "network_incident" (
    "network" TEXT NOT NULL PRIMARY KEY,
    "state" TEXT NOT NULL,
    "since" DATETIME NOT NULL,
    "reason" TEXT,
    "reported" BOOLEAN NOT NULL DEFAULT false,
    "degraded_sent" BOOLEAN NOT NULL DEFAULT false
);

-- CreateIndex
CREATE INDEX "event_account_id_created_at_idx" ON "event"("account_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "event_account_id_once_key_key" ON "event"("account_id", "once_key");

-- CreateIndex
CREATE INDEX "webhook_endpoint_account_id_idx" ON "webhook_endpoint"("account_id");

-- CreateIndex
CREATE INDEX "webhook_delivery_status_due_at_idx" ON "webhook_delivery"("status", "due_at");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_delivery_endpoint_id_event_id_key" ON "webhook_delivery"("endpoint_id", "event_id");

-- CreateIndex
CREATE INDEX "webhook_attempt_endpoint_id_created_at_idx" ON "webhook_attempt"("endpoint_id", "created_at");

-- CreateIndex
CREATE INDEX "webhook_attempt_delivery_id_idx" ON "webhook_attempt"("delivery_id");

