-- CreateTable
CREATE TABLE "plan" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "daily_quota" INTEGER NOT NULL,
    "bulk_batch_limit" INTEGER NOT NULL,
    "custom_ttl_allowed" BOOLEAN NOT NULL
);

-- CreateTable
CREATE TABLE "account" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "email" TEXT NOT NULL,
    "plan_name" TEXT NOT NULL,
    "api_key_hash" TEXT NOT NULL,
    "password_hash" TEXT,
    "whitelist_enabled" BOOLEAN NOT NULL DEFAULT false,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "account_plan_name_fkey" FOREIGN KEY ("plan_name") REFERENCES "plan" ("name") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "whitelist_domain" (
    "account_id" TEXT NOT NULL,
    "domain" TEXT NOT NULL,

    PRIMARY KEY ("account_id", "domain"),
    CONSTRAINT "whitelist_domain_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "quota_allocation" (
    "account_id" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "daily_quota" INTEGER NOT NULL,

    PRIMARY KEY ("account_id", "day"),
    CONSTRAINT "quota_allocation_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "daily_usage" (
    "account_id" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "queries" INTEGER NOT NULL,

    PRIMARY KEY ("account_id", "day"),
    CONSTRAINT "daily_usage_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "bulk_job" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "account_id" TEXT NOT NULL,
    "urls_queued" INTEGER NOT NULL,
    "urls_completed" INTEGER NOT NULL DEFAULT 0,
    "created_at" BIGINT NOT NULL,
    "completed_at" BIGINT,
    "paused_until" BIGINT,
    CONSTRAINT "bulk_job_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "bulk_url" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "job_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "count_url" TEXT NOT NULL,
    "result" TEXT,
    "completed_at" BIGINT,
    CONSTRAINT "bulk_url_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "bulk_job" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "network_count" (
    "url" TEXT NOT NULL,
    "network" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "fetched_at" BIGINT NOT NULL,

    PRIMARY KEY ("url", "network")
);

-- CreateIndex
CREATE UNIQUE INDEX "account_email_key" ON "account"("email");

-- CreateIndex
CREATE UNIQUE INDEX "account_api_key_hash_key" ON "account"("api_key_hash");

-- CreateIndex
CREATE INDEX "bulk_job_account_id_created_at_idx" ON "bulk_job"("account_id", "created_at");

-- CreateIndex
CREATE INDEX "bulk_job_completed_at_idx" ON "bulk_job"("completed_at");

-- CreateIndex
CREATE INDEX "bulk_url_job_id_completed_at_id_idx" ON "bulk_url"("job_id", "completed_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "bulk_url_job_id_count_url_key" ON "bulk_url"("job_id", "count_url");
