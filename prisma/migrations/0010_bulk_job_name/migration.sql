-- A bulk job may be named (the uploaded file's name, or one the user types). Nullable, no default: adding it
-- rewrites no rows, and older jobs and API v1 jobs stay unnamed.
ALTER TABLE "bulk_job" ADD COLUMN "name" TEXT;
