-- The request log in chunks (lib/store/request-chunks.ts): one row holds the requests of one account in one
-- minute that one insert wrote. Each existing request becomes a chunk of its own.

-- CreateTable
CREATE TABLE "request_log_chunk" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "account_id" TEXT NOT NULL,
    "first_id" TEXT NOT NULL,
    "minute" BIGINT NOT NULL,
    "rows" INTEGER NOT NULL,
    "errors" INTEGER NOT NULL,
    "keys" TEXT NOT NULL,
    "data" TEXT NOT NULL,
    CONSTRAINT "request_log_chunk_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "request_log_chunk_account_id_id_idx" ON "request_log_chunk"("account_id", "id" DESC);

INSERT INTO "request_log_chunk" ("id", "account_id", "first_id", "minute", "rows", "errors", "keys", "data")
SELECT "id", "account_id", "id", ("time" / 60000) * 60000, 1, "status" >= 400,
       json_array(json_array("key_id", 1, "status" >= 400)),
       json_array(json_array("id", "time", "key_id", "method", "path", "query", "status", "error_type", "duration_ms",
                             "url", "quota_spent", "ip", "user_agent"))
FROM "request_log";

-- DropTable
PRAGMA foreign_keys=off;
DROP TABLE "request_log";
PRAGMA foreign_keys=on;
