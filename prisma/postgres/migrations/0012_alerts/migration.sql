-- CreateTable
CREATE TABLE "event" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "data" TEXT NOT NULL,
    "once_key" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert_settings" (
    "account_id" TEXT NOT NULL,
    "email_events" TEXT,
    "digest" BOOLEAN NOT NULL DEFAULT true,
    "spike_min_increase" INTEGER NOT NULL DEFAULT 100,
    "spike_ratio" DOUBLE PRECISION NOT NULL DEFAULT 2,
    "digest_week" TEXT,

    CONSTRAINT "alert_settings_pkey" PRIMARY KEY ("account_id")
);

-- CreateTable
CREATE TABLE "webhook_endpoint" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "events" TEXT NOT NULL,
    "format" TEXT NOT NULL DEFAULT 'standard',
    "description" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "secret" TEXT NOT NULL,
    "previous_secret" TEXT,
    "previous_secret_until" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL,
    "last_success_at" TIMESTAMP(3),
    "failing_since" TIMESTAMP(3),
    "disabled_reason" TEXT,

    CONSTRAINT "webhook_endpoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_delivery" (
    "id" TEXT NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "due_at" TIMESTAMP(3) NOT NULL,
    "lease_owner" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "webhook_delivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_attempt" (
    "id" TEXT NOT NULL,
    "delivery_id" TEXT NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "status_code" INTEGER,
    "ok" BOOLEAN NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL,
    "next_attempt_at" TIMESTAMP(3),

    CONSTRAINT "webhook_attempt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "network_incident" (
    "network" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "since" TIMESTAMP(3) NOT NULL,
    "reason" TEXT,
    "reported" BOOLEAN NOT NULL DEFAULT false,
    "degraded_sent" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "network_incident_pkey" PRIMARY KEY ("network")
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

-- AddForeignKey
ALTER TABLE "event" ADD CONSTRAINT "event_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_settings" ADD CONSTRAINT "alert_settings_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_endpoint" ADD CONSTRAINT "webhook_endpoint_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_delivery" ADD CONSTRAINT "webhook_delivery_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_delivery" ADD CONSTRAINT "webhook_delivery_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "event"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_attempt" ADD CONSTRAINT "webhook_attempt_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "webhook_delivery"("id") ON DELETE CASCADE ON UPDATE CASCADE;

