import type { BulkCompletion, BulkStore, CountedItem } from "../../lib/store/bulk.ts";
import type { UsageStore } from "../../lib/store/usage.ts";

/**
 * Where queries are counted against the daily quota. Every count is durable before the answer it pays for goes
 * out: in the database's daily usage row, or on the scale stack in Redis, whose totals reach the rows within a
 * second (see RedisQuotaCounter).
 */
export interface QuotaCounter {
  /** Counts one query if fewer than `dailyQuota` were counted on `day`: the new count, or null when used up. */
  reserve(accountId: string, day: string, dailyQuota: number): Promise<number | null>;
  /** Queries counted on `day` so far. */
  used(accountId: string, day: string): Promise<number>;
  /**
   * Counts as many of `wanted` queries as are left today, but none unless at least `minimum` are (`minimum =
   * wanted`: all or none): how many were counted. For what pays per item (a URL newly tracked).
   */
  reserveUpTo(accountId: string, day: string, dailyQuota: number, wanted: number, minimum: number): Promise<number>;
  /** Gives back a reserved query that was not answered. */
  release(accountId: string, day: string): Promise<void>;
  /** Gives back `count` reserved queries that bought nothing. */
  releaseMany(accountId: string, day: string, count: number): Promise<void>;
  /** Writes counts kept elsewhere (Redis) to the usage rows now: before a report of this process reads them. */
  settle(): Promise<void>;
  /** Counts bulk URLs of one account and stores their answers: each is answered and counted once (see BulkStore.complete). */
  completeBulkUrls(counted: readonly CountedItem[], quota: { day: string; dailyQuota: number }, now: number): Promise<BulkCompletion[]>;
}

/** One process, or several without Redis: the database's conditional increments are the counters. */
export function storeQuotaCounter(usage: UsageStore, bulk: BulkStore): QuotaCounter {
  return {
    reserve: (accountId, day, dailyQuota) => usage.reserve(accountId, day, dailyQuota),
    used: (accountId, day) => usage.queriesOn(accountId, day),
    reserveUpTo: (accountId, day, dailyQuota, wanted, minimum) => usage.reserveUpTo(accountId, day, dailyQuota, wanted, minimum),
    release: (accountId, day) => usage.release(accountId, day),
    releaseMany: (accountId, day, count) => usage.releaseMany(accountId, day, count),
    completeBulkUrls: (counted, quota, now) => bulk.complete(counted, quota, now),
    settle: async () => {},
  };
}
