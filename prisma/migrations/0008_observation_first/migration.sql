-- An hourly point merges the observations of its hour, perhaps of several accounts: the earliest one's time is
-- kept, so an account that came to the URL after it does not read what others observed before. Nullable, no
-- default: adding it rewrites no rows, and an older row's first observation is its observed_at.
ALTER TABLE "observation" ADD COLUMN "first_observed_at" BIGINT;
