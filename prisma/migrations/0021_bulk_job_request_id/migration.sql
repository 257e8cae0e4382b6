-- AlterTable
ALTER TABLE "bulk_job" ADD COLUMN "request_id" TEXT;

