-- The networks an account shows and asks (API v2 and the dashboard): ids, comma-separated; NULL: every
-- network the service asks.
ALTER TABLE "account" ADD COLUMN "networks" TEXT;
