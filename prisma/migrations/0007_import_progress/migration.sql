-- Imports read and add as they go: their progress by reason, the documents read, why reading stopped early,
-- the runs begun (a bound on retries), and the running worker's lease token. A running import can now be
-- cancelled ("cancelled").
ALTER TABLE "url_import" ADD COLUMN "not_added" TEXT NOT NULL DEFAULT '{}';
ALTER TABLE "url_import" ADD COLUMN "files" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "url_import" ADD COLUMN "stopped" TEXT;
ALTER TABLE "url_import" ADD COLUMN "attempts" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "url_import" ADD COLUMN "lease_token" TEXT;
