-- URLs never refreshed are claimed first (a newly tracked URL is counted within a minute even while the
-- schedule runs behind): a partial index finds them without scanning the due URLs that were refreshed
-- before. Written by hand: the Prisma schema cannot express a partial index.
CREATE INDEX "refresh_schedule_never_refreshed_idx" ON "refresh_schedule"("next_refresh_at") WHERE "last_refreshed_at" IS NULL;
