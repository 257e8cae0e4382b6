-- The networks an account shows and asks (API v2 and the dashboard): ids, comma-separated; NULL: every
-- network the service asks.
ALTER TABLE "account" ADD COLUMN "networks" TEXT;

-- A bulk job submitted through API v2: the networks it asks (ids, comma-separated); NULL: a v1 job
-- (Facebook and Pinterest, answered as count objects).
ALTER TABLE "bulk_job" ADD COLUMN "networks" TEXT;
