import type { BulkCompletion, BulkStore, BulkUrlResult, QueuedBulkUrl } from "../../lib/store/bulk.ts";
import type { UsageStore } from "../../lib/store/usage.ts";

/**
 * Where queries are counted against the daily quota. Every count is durable in the database's daily usage
 * row before the answer it pays for goes out.
 */
export interface QuotaCounter {
  /** Counts one query if fewer than `dailyQuota` were counted on `day`: the new count, or null when used up. */
  reserve(accountId: string, day: string, dailyQuota: number): Promise<number | null>;
  /** Queries counted on `day` so far. */
  used(accountId: string, day: string): Promise<number>;
  /** Gives back a reserved query that was not answered. */
  release(accountId: string, day: string): Promise<void>;
  /** Counts a bulk URL and stores its answer: each URL is answered and counted once (see BulkStore.complete). */
  completeBulkUrl(item: QueuedBulkUrl, quota: { day: string; dailyQuota: number }, result: BulkUrlResult, now: number): Promise<BulkCompletion>;
}

/** One process, or several without Redis: the database's conditional increments are the counters. */
export function storeQuotaCounter(usage: UsageStore, bulk: BulkStore): QuotaCounter {
  return {
    reserve: (accountId, day, dailyQuota) => usage.reserve(accountId, day, dailyQuota),
    used: (accountId, day) => usage.queriesOn(accountId, day),
    release: (accountId, day) => usage.release(accountId, day),
    completeBulkUrl: (item, quota, result, now) => bulk.complete(item, quota, result, now),
  };
}
