-- Count history and tracked URLs. Edited after `prisma migrate diff`: observation is WITHOUT ROWID (its
-- primary key is the table: no second copy of every point), and columns are added without rebuilding tables.

-- CreateTable
CREATE TABLE "counted_url" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "url" TEXT NOT NULL,
    "compacted_to_hour" INTEGER NOT NULL DEFAULT 0
);

-- CreateTable
CREATE TABLE "observation" (
    "url_id" INTEGER NOT NULL,
    "hour" INTEGER NOT NULL,
    "observed_at" BIGINT NOT NULL,
    "facebook_total" BIGINT,
    "facebook_comment" BIGINT,
    "facebook_reaction" BIGINT,
    "facebook_share" BIGINT,
    "facebook_comment_plugin" BIGINT,
    "pinterest" BIGINT,

    PRIMARY KEY ("url_id", "hour"),
    CONSTRAINT "observation_url_id_fkey" FOREIGN KEY ("url_id") REFERENCES "counted_url" ("id") ON DELETE CASCADE ON UPDATE CASCADE
) WITHOUT ROWID;

-- CreateTable
CREATE TABLE "queried_url" (
    "account_id" TEXT NOT NULL,
    "url_id" INTEGER NOT NULL,
    "first_at" BIGINT NOT NULL,

    PRIMARY KEY ("account_id", "url_id"),
    CONSTRAINT "queried_url_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "queried_url_url_id_fkey" FOREIGN KEY ("url_id") REFERENCES "counted_url" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "tracked_url" (
    "account_id" TEXT NOT NULL,
    "url_id" INTEGER NOT NULL,
    "added_at" BIGINT NOT NULL,
    "aliases" TEXT NOT NULL DEFAULT '[]',
    "last_refreshed_at" BIGINT,
    "latest" TEXT,
    "total" BIGINT,
    "change_7d" BIGINT,
    "change_30d" BIGINT,

    PRIMARY KEY ("account_id", "url_id"),
    CONSTRAINT "tracked_url_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "tracked_url_url_id_fkey" FOREIGN KEY ("url_id") REFERENCES "counted_url" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "refresh_schedule" (
    "url_id" INTEGER NOT NULL PRIMARY KEY,
    "first_tracked_at" BIGINT NOT NULL,
    "next_refresh_at" BIGINT NOT NULL,
    "last_refreshed_at" BIGINT,
    "lease_until" BIGINT,
    "lease_token" TEXT,
    CONSTRAINT "refresh_schedule_url_id_fkey" FOREIGN KEY ("url_id") REFERENCES "counted_url" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "url_import" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "account_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "source_url" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "urls_found" INTEGER NOT NULL DEFAULT 0,
    "added" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "created_at" BIGINT NOT NULL,
    "updated_at" BIGINT NOT NULL,
    "next_read_at" BIGINT,
    "lease_until" BIGINT,
    CONSTRAINT "url_import_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- AlterTable (added columns: no table rebuild)
ALTER TABLE "plan" ADD COLUMN "tracked_url_limit" INTEGER NOT NULL DEFAULT 100;
ALTER TABLE "account" ADD COLUMN "count_variants" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE UNIQUE INDEX "counted_url_url_key" ON "counted_url"("url");

-- CreateIndex
CREATE INDEX "counted_url_compacted_to_hour_idx" ON "counted_url"("compacted_to_hour");

-- CreateIndex
CREATE INDEX "tracked_url_url_id_idx" ON "tracked_url"("url_id");

-- CreateIndex
CREATE INDEX "tracked_url_account_id_added_at_url_id_idx" ON "tracked_url"("account_id", "added_at", "url_id");

-- CreateIndex
CREATE INDEX "tracked_url_account_id_total_url_id_idx" ON "tracked_url"("account_id", "total", "url_id");

-- CreateIndex
CREATE INDEX "tracked_url_account_id_change_7d_url_id_idx" ON "tracked_url"("account_id", "change_7d", "url_id");

-- CreateIndex
CREATE INDEX "refresh_schedule_next_refresh_at_idx" ON "refresh_schedule"("next_refresh_at");

-- CreateIndex
CREATE INDEX "url_import_account_id_created_at_idx" ON "url_import"("account_id", "created_at");

-- CreateIndex
CREATE INDEX "url_import_status_next_read_at_idx" ON "url_import"("status", "next_read_at");


-- The tracked-URL limits of the default plans (a plan an operator added keeps the column's default).
UPDATE "plan" SET "tracked_url_limit" = 5000 WHERE "name" = 'plus';
UPDATE "plan" SET "tracked_url_limit" = 50000 WHERE "name" = 'business';
UPDATE "plan" SET "tracked_url_limit" = 500000 WHERE "name" = 'dedicated';
