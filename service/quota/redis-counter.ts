import type { Redis } from "ioredis";
import { QUOTA_COUNTER_TTL_MS, quotaCounterKey } from "../../lib/redis/account-keys.ts";
import { RedisUnavailableError } from "../../lib/redis/redis.ts";
import type { BulkCompletion, BulkStore, BulkUrlResult, QueuedBulkUrl } from "../../lib/store/bulk.ts";
import { perTick } from "../../lib/store/per-tick.ts";
import type { UsageStore } from "../../lib/store/usage.ts";
import type { QuotaCounter } from "./counter.ts";
import { log } from "../../lib/log/log.ts";

/**
 * A day's counter is a hash: `n` queries counted, `at` the time (Redis's clock, ms) of the last one.
 * -2: no counter (never seeded, or lost in a Redis restart); -3: no query counted for IDLE ms (see
 * resync).
 */
const NOT_SEEDED = -2;
const IDLE = -3;

const NOW_MS = `local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

// KEYS[1] counter; ARGV[1] daily quota, ARGV[2] idle ms, ARGV[3] queries wanted, ARGV[4] the fewest worth
// taking. Returns {count, granted} (granted may be fewer than wanted, or none, near the quota), or {-2 or -3, 0}.
const RESERVE = `
${NOW_MS}
local n = redis.call('HGET', KEYS[1], 'n')
if not n then return {${NOT_SEEDED}, 0} end
if now - tonumber(redis.call('HGET', KEYS[1], 'at')) > tonumber(ARGV[2]) then return {${IDLE}, 0} end
local granted = math.min(tonumber(ARGV[3]), tonumber(ARGV[1]) - tonumber(n))
if granted <= 0 or granted < tonumber(ARGV[4]) then return {tonumber(n), 0} end
redis.call('HSET', KEYS[1], 'at', now)
return {redis.call('HINCRBY', KEYS[1], 'n', granted), granted}`;

// KEYS[1] counter; ARGV[1] the database's count, ARGV[2] ttl ms, ARGV[3] idle ms. Sets the counter to the
// database's count when it is missing, or still idle (no process counted a query since it was found idle).
const RESYNC = `
${NOW_MS}
local at = redis.call('HGET', KEYS[1], 'at')
if at and now - tonumber(at) <= tonumber(ARGV[3]) then return 0 end
redis.call('HSET', KEYS[1], 'n', ARGV[1], 'at', now)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

// KEYS[1] counter; ARGV[1] queries given back.
const RELEASE = `
local n = tonumber(redis.call('HGET', KEYS[1], 'n') or '0')
if n > 0 then return redis.call('HINCRBY', KEYS[1], 'n', -math.min(n, tonumber(ARGV[1]))) end
return 0`;

const RAISE = `
local n = redis.call('HGET', KEYS[1], 'n')
if n and tonumber(n) < tonumber(ARGV[1]) then redis.call('HSET', KEYS[1], 'n', ARGV[1]) end
return 0`;

/** Longer than any request or bulk URL takes from reservation to database commit. */
const DEFAULT_IDLE_MS = 60_000;

interface QuotaScripts {
  quotaReserve(key: string, dailyQuota: number, idleMs: number, wanted: number, minimum: number): Promise<[number, number]>;
  quotaResync(key: string, recorded: number, ttlMs: number, idleMs: number): Promise<number>;
  quotaRelease(key: string, count: number): Promise<number>;
  quotaRaise(key: string, atLeast: number): Promise<number>;
}

/** A reservation whose counter could not be reached: its caller gets the error. */
class Failed {
  constructor(readonly error: unknown) {}
}

interface Wanted {
  accountId: string;
  day: string;
  dailyQuota: number;
}

interface Reserved extends Wanted {
  /** What Redis counted for this reservation. */
  used: number;
}

/**
 * Quota counters shared by every API process and bulk worker: a Lua check-and-increment in Redis decides,
 * atomically across processes, whether a query may be answered (one call per account and event-loop turn,
 * for all of that turn's queries). The daily usage row in the database stays the record: each reservation
 * is added to it (one statement per turn) before its answer goes out, so a process killed mid-request
 * never loses an answered query. The row takes it only within the quota: after Redis lost counts the row
 * may be ahead, and then the row's word is final.
 *
 * When Redis has no counter for the day (first query of the day, or Redis restarted and lost its data) it
 * is seeded from the database row, so a Redis restart does not reset anyone's quota. The database row
 * never runs ahead of Redis (adds happen after Redis counted, releases before Redis gives back), so a
 * database total above Redis means Redis lost counts in a restart: it is raised back to that total.
 *
 * Redis runs ahead of the row by the reservations in flight, and by those of a process killed between
 * the two steps (they were never answered). When an account's counter has been idle for longer than any
 * request takes, nothing can be in flight: the next reservation first sets it back to the row's count,
 * which gives such reservations back.
 */
export class RedisQuotaCounter implements QuotaCounter {
  private readonly scripts: QuotaScripts;
  private readonly reserveBatched: (wanted: Wanted) => Promise<number | null | Failed>;
  private readonly record: (reserved: Reserved) => Promise<number | null>;

  constructor(
    private readonly redis: Redis,
    private readonly usage: UsageStore,
    private readonly bulk: BulkStore,
    private readonly prefix: string,
    private readonly idleMs = DEFAULT_IDLE_MS,
  ) {
    redis.defineCommand("quotaReserve", { numberOfKeys: 1, lua: RESERVE });
    redis.defineCommand("quotaResync", { numberOfKeys: 1, lua: RESYNC });
    redis.defineCommand("quotaRelease", { numberOfKeys: 1, lua: RELEASE });
    redis.defineCommand("quotaRaise", { numberOfKeys: 1, lua: RAISE });
    this.scripts = redis as unknown as QuotaScripts;
    this.reserveBatched = perTick((batch: Wanted[]) => this.reserveBatch(batch));
    this.record = perTick((batch: Reserved[]) => this.recordBatch(batch));
  }

  async reserve(accountId: string, day: string, dailyQuota: number): Promise<number | null> {
    const used = await this.reserveInRedis({ accountId, day, dailyQuota });
    if (used === null) return null;
    try {
      return await this.record({ accountId, day, dailyQuota, used });
    } catch (error) {
      await this.scripts.quotaRelease(this.key(accountId, day), 1).catch(() => {});
      throw error;
    }
  }

  async used(accountId: string, day: string): Promise<number> {
    const counted = await this.redis.hget(this.key(accountId, day), "n");
    return counted === null ? this.usage.queriesOn(accountId, day) : Number(counted);
  }

  async release(accountId: string, day: string): Promise<void> {
    await this.releaseMany(accountId, day, 1);
  }

  /** Counted in Redis (all processes agree on what is left), then added to the database row before it is used. */
  async reserveUpTo(accountId: string, day: string, dailyQuota: number, wanted: number, minimum: number): Promise<number> {
    const [, granted] = await this.reserveMany({ accountId, day, dailyQuota }, wanted, minimum);
    if (granted === 0) return 0;
    const key = this.key(accountId, day);
    let recorded: (number | null)[];
    try {
      recorded = await this.usage.reserveMany([{ accountId, day, queries: granted, dailyQuota }]);
    } catch (error) {
      await this.scripts.quotaRelease(key, granted).catch(() => {});
      throw error;
    }
    if (recorded[0] !== null) return granted;
    // The row is ahead of a Redis that lost counts: give these back and bring Redis up to the row.
    await this.scripts.quotaRelease(key, granted);
    await this.scripts.quotaRaise(key, await this.usage.queriesOn(accountId, day));
    return 0;
  }

  async releaseMany(accountId: string, day: string, count: number): Promise<void> {
    if (count <= 0) return;
    await this.usage.releaseMany(accountId, day, count);
    await this.scripts.quotaRelease(this.key(accountId, day), count);
  }

  async completeBulkUrl(
    item: QueuedBulkUrl,
    quota: { day: string; dailyQuota: number },
    result: BulkUrlResult,
    now: number,
  ): Promise<BulkCompletion> {
    const key = this.key(item.accountId, quota.day);
    if ((await this.reserveInRedis({ accountId: item.accountId, ...quota })) === null) return "quota_exhausted";
    let outcome: BulkCompletion;
    try {
      outcome = await this.bulk.complete(item, quota, result, now);
    } catch (error) {
      await this.scripts.quotaRelease(key, 1).catch(() => {});
      throw error;
    }
    // Another worker answered it first (a stalled URL taken over), or the row was ahead of a Redis that
    // lost counts: this reservation paid for nothing.
    if (outcome !== "completed") await this.scripts.quotaRelease(key, 1);
    return outcome;
  }

  private key(accountId: string, day: string): string {
    return quotaCounterKey(this.prefix, day, accountId);
  }

  private async reserveInRedis(wanted: Wanted): Promise<number | null> {
    const result = await this.reserveBatched(wanted);
    if (result instanceof Failed) throw result.error;
    return result;
  }

  /**
   * One Redis call per counter for the turn's reservations; each caller gets its own count, or null. A
   * counter that fails fails its own callers only: the others' reservations are made and must be kept.
   */
  private async reserveBatch(batch: Wanted[]): Promise<(number | null | Failed)[]> {
    const groups = new Map<string, { wanted: Wanted; callers: number[] }>();
    batch.forEach((wanted, i) => {
      const id = `${this.key(wanted.accountId, wanted.day)} ${wanted.dailyQuota}`;
      const group = groups.get(id);
      if (group) group.callers.push(i);
      else groups.set(id, { wanted, callers: [i] });
    });
    const results: (number | null | Failed)[] = batch.map(() => null);
    await Promise.all(
      [...groups.values()].map(async ({ wanted, callers }) => {
        try {
          const [count, granted] = await this.reserveMany(wanted, callers.length);
          // The first `granted` callers get the counts up to the new total, in order.
          callers.slice(0, granted).forEach((caller, j) => (results[caller] = count - granted + 1 + j));
        } catch (error) {
          for (const caller of callers) results[caller] = new Failed(error);
        }
      }),
    );
    return results;
  }

  private async reserveMany({ accountId, day, dailyQuota }: Wanted, wanted: number, minimum = 1): Promise<[number, number]> {
    const key = this.key(accountId, day);
    for (let attempt = 0; attempt < 3; attempt++) {
      const [count, granted] = await this.scripts.quotaReserve(key, dailyQuota, this.idleMs, wanted, minimum);
      if (count !== NOT_SEEDED && count !== IDLE) return [count, granted];
      // Whichever process resyncs first wins; for the others the counter is no longer missing or idle.
      const recorded = await this.usage.queriesOn(accountId, day);
      await this.scripts.quotaResync(key, recorded, QUOTA_COUNTER_TTL_MS, this.idleMs);
    }
    throw new RedisUnavailableError(`quota counter ${key} could not be seeded from the database`);
  }

  /**
   * Adds the turn's reservations to the database rows, then raises each Redis counter to at least its
   * row's total. That is a no-op while Redis is ahead, and it catches a counter re-seeded in a restart
   * while reservations counted by the previous Redis were still on their way to the database (the row may
   * then refuse some: their callers get null, and the counter is raised to the row). The raise is a
   * repair, best effort: once the rows are written the queries are counted and will be answered.
   */
  private async recordBatch(batch: Reserved[]): Promise<(number | null)[]> {
    const totals = await this.usage.reserveMany(
      batch.map((r) => ({ accountId: r.accountId, day: r.day, queries: 1, dailyQuota: r.dailyQuota })),
    );
    const rows = new Map<string, number>();
    await Promise.all(
      batch.map(async (r, i) => {
        const key = this.key(r.accountId, r.day);
        const total = totals[i] ?? (await this.usage.queriesOn(r.accountId, r.day));
        rows.set(key, Math.max(rows.get(key) ?? 0, total));
      }),
    );
    await Promise.all(
      [...rows].map(([key, total]) =>
        this.scripts.quotaRaise(key, total).catch((error: unknown) => log.error({ event: "quota_raise_failed", key, err: error })),
      ),
    );
    return batch.map((r, i) => (totals[i] === null ? null : r.used));
  }
}
