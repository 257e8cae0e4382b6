-- AlterTable
ALTER TABLE "plan" ADD COLUMN     "tracked_url_limit" INTEGER NOT NULL DEFAULT 100;

-- AlterTable
ALTER TABLE "account" ADD COLUMN     "count_variants" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "counted_url" (
    "id" SERIAL NOT NULL,
    "url" TEXT NOT NULL,
    "compacted_to_hour" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "counted_url_pkey" PRIMARY KEY ("id")
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

    CONSTRAINT "observation_pkey" PRIMARY KEY ("url_id","hour")
);

-- CreateTable
CREATE TABLE "queried_url" (
    "account_id" TEXT NOT NULL,
    "url_id" INTEGER NOT NULL,
    "first_at" BIGINT NOT NULL,

    CONSTRAINT "queried_url_pkey" PRIMARY KEY ("account_id","url_id")
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

    CONSTRAINT "tracked_url_pkey" PRIMARY KEY ("account_id","url_id")
);

-- CreateTable
CREATE TABLE "refresh_schedule" (
    "url_id" INTEGER NOT NULL,
    "first_tracked_at" BIGINT NOT NULL,
    "next_refresh_at" BIGINT NOT NULL,
    "last_refreshed_at" BIGINT,
    "lease_until" BIGINT,
    "lease_token" TEXT,

    CONSTRAINT "refresh_schedule_pkey" PRIMARY KEY ("url_id")
);

-- CreateTable
CREATE TABLE "url_import" (
    "id" TEXT NOT NULL,
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

    CONSTRAINT "url_import_pkey" PRIMARY KEY ("id")
);

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

-- AddForeignKey
ALTER TABLE "observation" ADD CONSTRAINT "observation_url_id_fkey" FOREIGN KEY ("url_id") REFERENCES "counted_url"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "queried_url" ADD CONSTRAINT "queried_url_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "queried_url" ADD CONSTRAINT "queried_url_url_id_fkey" FOREIGN KEY ("url_id") REFERENCES "counted_url"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tracked_url" ADD CONSTRAINT "tracked_url_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tracked_url" ADD CONSTRAINT "tracked_url_url_id_fkey" FOREIGN KEY ("url_id") REFERENCES "counted_url"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "refresh_schedule" ADD CONSTRAINT "refresh_schedule_url_id_fkey" FOREIGN KEY ("url_id") REFERENCES "counted_url"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "url_import" ADD CONSTRAINT "url_import_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- The tracked-URL limits of the default plans (a plan an operator added keeps the column's default).
UPDATE "plan" SET "tracked_url_limit" = 5000 WHERE "name" = 'plus';
UPDATE "plan" SET "tracked_url_limit" = 50000 WHERE "name" = 'business';
UPDATE "plan" SET "tracked_url_limit" = 500000 WHERE "name" = 'dedicated';
