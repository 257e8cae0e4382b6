-- The request log (service/requests): one row per API request of an account, written in batches and pruned
-- after REQUEST_LOG_DAYS. key_id has no foreign key: a row outlives the key it names.

-- CreateTable
CREATE TABLE "request_log" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "account_id" TEXT NOT NULL,
    "time" BIGINT NOT NULL,
    "key_id" TEXT,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "query" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "error_type" TEXT,
    "duration_ms" INTEGER NOT NULL,
    "url" TEXT,
    "quota_spent" INTEGER NOT NULL,
    "ip" TEXT NOT NULL,
    "user_agent" TEXT,
    CONSTRAINT "request_log_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "request_log_account_id_time_id_idx" ON "request_log"("account_id", "time" DESC, "id" DESC);

