import type { Redis } from "ioredis";
import { perTick } from "../store/per-tick.ts";
import type { BulkCompletion, Store } from "../store/types.ts";
import type { QuotaCounter } from "./counter.ts";

/** -2: Redis has no counter for the day (never seeded, or lost in a restart); -1: the quota is used up. */
const NOT_SEEDED = -2;
const USED_UP = -1;

const RESERVE = `
local used = redis.call('GET', KEYS[1])
if not used then return ${NOT_SEEDED} end
if tonumber(used) >= tonumber(ARGV[1]) then return ${USED_UP} end
return redis.call('INCR', KEYS[1])`;

const RELEASE = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used > 0 then return redis.call('DECR', KEYS[1]) end
return 0`;

const RAISE = `
local used = redis.call('GET', KEYS[1])
if used and tonumber(used) < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1], 'KEEPTTL') end
return 0`;

/** A quota day lasts at most 25 hours in any time zone; a counter outlives it and then expires on its own. */
const COUNTER_TTL_MS = 2 * 24 * 3600_000;

interface QuotaScripts {
  quotaReserve(key: string, dailyQuota: number): Promise<number>;
  quotaRelease(key: string): Promise<number>;
  quotaRaise(key: string, atLeast: number): Promise<number>;
}

interface Reserved {
  accountId: string;
  day: string;
  /** What Redis counted for this reservation. */
  used: number;
}

/**
 * Quota counters shared by every API process and bulk worker: a Lua check-and-increment in Redis decides,
 * atomically across processes, whether a query may be answered. The daily usage row in the database stays
 * the record: each reservation is added to it (one statement per event-loop turn) before its answer goes
 * out, so a process killed mid-request never loses an answered query.
 *
 * When Redis has no counter for the day (first query of the day, or Redis restarted and lost its data) it
 * is seeded from the database row, so a Redis restart does not reset anyone's quota. The database row
 * never runs ahead of Redis (adds happen after Redis counted, releases before Redis gives back), so a
 * database total above Redis means Redis lost counts in a restart: it is raised back to that total.
 */
export class RedisQuotaCounter implements QuotaCounter {
  private readonly scripts: QuotaScripts;
  private readonly record: (reserved: Reserved) => Promise<number>;

  constructor(
    private readonly redis: Redis,
    private readonly store: Store,
    private readonly prefix: string,
  ) {
    redis.defineCommand("quotaReserve", { numberOfKeys: 1, lua: RESERVE });
    redis.defineCommand("quotaRelease", { numberOfKeys: 1, lua: RELEASE });
    redis.defineCommand("quotaRaise", { numberOfKeys: 1, lua: RAISE });
    this.scripts = redis as unknown as QuotaScripts;
    this.record = perTick((batch: Reserved[]) => this.recordBatch(batch));
  }

  async reserve(accountId: string, day: string, dailyQuota: number): Promise<number | null> {
    const used = await this.reserveInRedis(accountId, day, dailyQuota);
    if (used === null) return null;
    try {
      await this.record({ accountId, day, used });
    } catch (error) {
      await this.scripts.quotaRelease(this.key(accountId, day)).catch(() => {});
      throw error;
    }
    return used;
  }

  async release(accountId: string, day: string): Promise<void> {
    await this.store.releaseQuery(accountId, day);
    await this.scripts.quotaRelease(this.key(accountId, day));
  }

  async completeBulkUrl(
    item: Parameters<QuotaCounter["completeBulkUrl"]>[0],
    day: string,
    dailyQuota: number,
    result: string,
    now: number,
  ): Promise<BulkCompletion> {
    if ((await this.reserveInRedis(item.accountId, day, dailyQuota)) === null) return "quota_exhausted";
    let outcome: BulkCompletion;
    try {
      outcome = await this.store.completeBulkUrl(item, { day, dailyQuota: null }, result, now);
    } catch (error) {
      await this.scripts.quotaRelease(this.key(item.accountId, day)).catch(() => {});
      throw error;
    }
    // Another worker answered it first (a stalled URL taken over): this reservation paid for nothing.
    if (outcome === "already_done") await this.scripts.quotaRelease(this.key(item.accountId, day));
    return outcome;
  }

  private key(accountId: string, day: string): string {
    return `${this.prefix}:quota:${day}:${accountId}`;
  }

  private async reserveInRedis(accountId: string, day: string, dailyQuota: number): Promise<number | null> {
    const key = this.key(accountId, day);
    for (let attempt = 0; attempt < 3; attempt++) {
      const used = await this.scripts.quotaReserve(key, dailyQuota);
      if (used === USED_UP) return null;
      if (used !== NOT_SEEDED) return used;
      // Whichever process seeds first wins (NX); the others' seeds are no-ops.
      const recorded = await this.store.queriesOn(accountId, day);
      await this.redis.set(key, recorded, "PX", COUNTER_TTL_MS, "NX");
    }
    throw new Error(`quota counter ${key} vanished while being seeded three times`);
  }

  /**
   * Adds the turn's reservations to the database rows, then raises each Redis counter to at least its
   * row's total. That is a no-op while Redis is ahead, and it catches a counter re-seeded in a restart
   * while reservations counted by the previous Redis were still on their way to the database.
   */
  private async recordBatch(batch: Reserved[]): Promise<number[]> {
    const totals = await this.store.addQueries(batch.map((r) => ({ accountId: r.accountId, day: r.day, queries: 1 })));
    const rows = new Map<string, number>();
    batch.forEach((r, i) => {
      const key = this.key(r.accountId, r.day);
      rows.set(key, Math.max(rows.get(key) ?? 0, totals[i]!));
    });
    await Promise.all([...rows].map(([key, total]) => this.scripts.quotaRaise(key, total)));
    return batch.map((r) => r.used);
  }
}
