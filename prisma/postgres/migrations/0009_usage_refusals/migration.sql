-- Single-URL count queries refused per account and quota day, by reason (quota, whitelist, invalid): the usage
-- page shows them beside the queries served. One row per account and day, added to in batches.
CREATE TABLE "daily_refusal" (
    "account_id" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "quota" INTEGER NOT NULL DEFAULT 0,
    "whitelist" INTEGER NOT NULL DEFAULT 0,
    "invalid" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "daily_refusal_pkey" PRIMARY KEY ("account_id","day")
);

ALTER TABLE "daily_refusal" ADD CONSTRAINT "daily_refusal_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;
