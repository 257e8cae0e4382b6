import type { BulkCompletion, QueuedBulkUrl, Store } from "../store/types.ts";

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
  /** Counts a bulk URL and stores its result: each URL is answered and counted once (see Store.completeBulkUrl). */
  completeBulkUrl(item: QueuedBulkUrl, day: string, dailyQuota: number, result: string, now: number): Promise<BulkCompletion>;
}

/** One process, or several without Redis: the database's conditional increments are the counters. */
export function storeQuotaCounter(store: Store): QuotaCounter {
  return {
    reserve: (accountId, day, dailyQuota) => store.reserveQuery(accountId, day, dailyQuota),
    used: (accountId, day) => store.queriesOn(accountId, day),
    release: (accountId, day) => store.releaseQuery(accountId, day),
    completeBulkUrl: (item, day, dailyQuota, result, now) => store.completeBulkUrl(item, { day, dailyQuota }, result, now),
  };
}
