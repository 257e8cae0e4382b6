-- CreateTable
CREATE TABLE "plan" (
    "name" TEXT NOT NULL,
    "daily_quota" INTEGER NOT NULL,
    "bulk_batch_limit" INTEGER NOT NULL,
    "custom_ttl_allowed" BOOLEAN NOT NULL,

    CONSTRAINT "plan_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "account" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "plan_name" TEXT NOT NULL,
    "api_key_hash" TEXT NOT NULL,
    "api_key_encrypted" TEXT,
    "password_hash" TEXT,
    "whitelist_enabled" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "name" TEXT,
    "email_verified" TIMESTAMP(3),
    "image" TEXT,

    CONSTRAINT "account_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth_account" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "provider_account_id" TEXT NOT NULL,
    "refresh_token" TEXT,
    "access_token" TEXT,
    "expires_at" INTEGER,
    "token_type" TEXT,
    "scope" TEXT,
    "id_token" TEXT,
    "session_state" TEXT,

    CONSTRAINT "oauth_account_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "session" (
    "id" TEXT NOT NULL,
    "session_token" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "expires" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "user_agent" TEXT,

    CONSTRAINT "session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "verification_token" (
    "identifier" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "expires" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "verification_token_pkey" PRIMARY KEY ("identifier","token")
);

-- CreateTable
CREATE TABLE "whitelist_domain" (
    "account_id" TEXT NOT NULL,
    "domain" TEXT NOT NULL,

    CONSTRAINT "whitelist_domain_pkey" PRIMARY KEY ("account_id","domain")
);

-- CreateTable
CREATE TABLE "quota_allocation" (
    "account_id" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "daily_quota" INTEGER NOT NULL,

    CONSTRAINT "quota_allocation_pkey" PRIMARY KEY ("account_id","day")
);

-- CreateTable
CREATE TABLE "daily_usage" (
    "account_id" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "queries" INTEGER NOT NULL,

    CONSTRAINT "daily_usage_pkey" PRIMARY KEY ("account_id","day")
);

-- CreateTable
CREATE TABLE "bulk_job" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "urls_queued" INTEGER NOT NULL,
    "urls_completed" INTEGER NOT NULL DEFAULT 0,
    "created_at" BIGINT NOT NULL,
    "completed_at" BIGINT,
    "paused_until" BIGINT,

    CONSTRAINT "bulk_job_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bulk_url" (
    "id" SERIAL NOT NULL,
    "job_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "count_url" TEXT NOT NULL,
    "result" TEXT,
    "completed_at" BIGINT,

    CONSTRAINT "bulk_url_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "network_count" (
    "url" TEXT NOT NULL,
    "network" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "fetched_at" BIGINT NOT NULL,

    CONSTRAINT "network_count_pkey" PRIMARY KEY ("url","network")
);

-- CreateIndex
CREATE UNIQUE INDEX "account_email_key" ON "account"("email");

-- CreateIndex
CREATE UNIQUE INDEX "account_api_key_hash_key" ON "account"("api_key_hash");

-- CreateIndex
CREATE INDEX "oauth_account_account_id_idx" ON "oauth_account"("account_id");

-- CreateIndex
CREATE UNIQUE INDEX "oauth_account_provider_provider_account_id_key" ON "oauth_account"("provider", "provider_account_id");

-- CreateIndex
CREATE UNIQUE INDEX "session_session_token_key" ON "session"("session_token");

-- CreateIndex
CREATE INDEX "session_account_id_idx" ON "session"("account_id");

-- CreateIndex
CREATE INDEX "bulk_job_account_id_created_at_idx" ON "bulk_job"("account_id", "created_at");

-- CreateIndex
CREATE INDEX "bulk_job_completed_at_idx" ON "bulk_job"("completed_at");

-- CreateIndex
CREATE INDEX "bulk_url_job_id_completed_at_id_idx" ON "bulk_url"("job_id", "completed_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "bulk_url_job_id_count_url_key" ON "bulk_url"("job_id", "count_url");

-- AddForeignKey
ALTER TABLE "account" ADD CONSTRAINT "account_plan_name_fkey" FOREIGN KEY ("plan_name") REFERENCES "plan"("name") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_account" ADD CONSTRAINT "oauth_account_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "session" ADD CONSTRAINT "session_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "whitelist_domain" ADD CONSTRAINT "whitelist_domain_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "quota_allocation" ADD CONSTRAINT "quota_allocation_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "daily_usage" ADD CONSTRAINT "daily_usage_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bulk_job" ADD CONSTRAINT "bulk_job_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bulk_url" ADD CONSTRAINT "bulk_url_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "bulk_job"("id") ON DELETE CASCADE ON UPDATE CASCADE;

