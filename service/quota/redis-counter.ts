import type { Redis } from "ioredis";
import { QUOTA_COUNTER_TTL_MS, quotaCounterKey } from "../../lib/redis/account-keys.ts";
import { RedisUnavailableError } from "../../lib/redis/redis.ts";
import type { BulkCompletion, BulkStore, CountedItem } from "../../lib/store/bulk.ts";
import { coalesced } from "../../lib/store/per-tick.ts";
import type { CountedDay, UsageStore } from "../../lib/store/usage.ts";
import type { QuotaCounter } from "./counter.ts";
import { log } from "../../lib/log/log.ts";

/** A day's counter is a hash: `n` queries counted. -2: no counter (never seeded, or lost in a Redis restart). */
const NOT_SEEDED = -2;
/** Seeding a counter and finding it missing again this often means something else keeps removing it. */
const SEED_ATTEMPTS = 3;

// KEYS[1] counter; ARGV[1] daily quota, ARGV[2] queries wanted, ARGV[3] the fewest worth taking. Returns
// {count, granted} (granted may be fewer than wanted, or none, near the quota), or {-2, 0}.
const RESERVE = `
local n = redis.call('HGET', KEYS[1], 'n')
if not n then return {${NOT_SEEDED}, 0} end
local granted = math.min(tonumber(ARGV[2]), tonumber(ARGV[1]) - tonumber(n))
if granted <= 0 or granted < tonumber(ARGV[3]) then return {tonumber(n), 0} end
return {redis.call('HINCRBY', KEYS[1], 'n', granted), granted}`;

// KEYS[1] counter; ARGV[1] the database's count, ARGV[2] ttl ms. Seeds a missing counter from the database.
const SEED = `
if redis.call('HEXISTS', KEYS[1], 'n') == 1 then return 0 end
redis.call('HSET', KEYS[1], 'n', ARGV[1])
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

/** How often the counters a process touched are written to their database rows. */
const DEFAULT_FLUSH_MS = 1_000;

interface QuotaScripts {
  quotaReserve(key: string, dailyQuota: number, wanted: number, minimum: number): Promise<[number, number]>;
  quotaSeed(key: string, recorded: number, ttlMs: number): Promise<number>;
  quotaRelease(key: string, count: number): Promise<number>;
  quotaRaise(key: string, atLeast: number): Promise<number>;
}

/** A reservation whose counter could not be reached: its caller gets the error. */
class Failed {
  constructor(readonly error: unknown) {}
}

/** A reservation whose counter has no count in Redis yet: its caller seeds it, outside the batch. */
const UNSEEDED = Symbol("unseeded");

interface Wanted {
  accountId: string;
  day: string;
  dailyQuota: number;
}

/**
 * Quota counters shared by every API process and bulk worker: a Lua check-and-increment in Redis decides,
 * atomically across processes, whether a query may be answered (one call per account for all the queries
 * that arrived while the last call was out: under load a call per turn was most of a cached query's Redis
 * cost). Redis holds the day's count, the quota's record while the day lasts: a query costs no database write. Every second each process writes the highest total Redis answered it for
 * each counter it touched to the daily usage row, raising the row (never lowering it): the rows follow Redis
 * within a second, and any process that counts for an account also writes what a killed one counted. A Redis
 * that restarts empty is seeded from the row, after this process wrote what it holds; only what other
 * processes counted in the last second can be lost then (run Redis with AOF to lose nothing).
 *
 * What pays per item (reserveUpTo) and bulk URLs (completeBulkUrls) write their rows at once, as before:
 * those rows may then hold the quota's last word when Redis lost counts, and Redis is raised to them.
 * A process killed between counting a query and answering it leaves that query counted: quota errs on the
 * side of the account's limit, never past it.
 */
export class RedisQuotaCounter implements QuotaCounter {
  private readonly scripts: QuotaScripts;
  private readonly reserveBatched: (wanted: Wanted) => Promise<number | null | Failed | typeof UNSEEDED>;
  /** The counters counted in since the last flush, by key, with the highest total Redis answered. */
  private touched = new Map<string, CountedDay>();
  private readonly flushTimer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();
  /** Counters being seeded from their rows, by key. */
  private readonly seeding = new Map<string, Promise<void>>();

  constructor(
    private readonly redis: Redis,
    private readonly usage: UsageStore,
    private readonly bulk: BulkStore,
    private readonly prefix: string,
    flushMs = DEFAULT_FLUSH_MS,
  ) {
    redis.defineCommand("quotaReserve", { numberOfKeys: 1, lua: RESERVE });
    redis.defineCommand("quotaSeed", { numberOfKeys: 1, lua: SEED });
    redis.defineCommand("quotaRelease", { numberOfKeys: 1, lua: RELEASE });
    redis.defineCommand("quotaRaise", { numberOfKeys: 1, lua: RAISE });
    this.scripts = redis as unknown as QuotaScripts;
    this.reserveBatched = coalesced((batch: Wanted[]) => this.reserveBatch(batch));
    this.flushTimer = setInterval(() => void this.flush().catch((error: unknown) => log.error({ event: "quota_flush_failed", err: error })), flushMs);
    this.flushTimer.unref();
  }

  async reserve(accountId: string, day: string, dailyQuota: number): Promise<number | null> {
    const used = await this.reserveInRedis({ accountId, day, dailyQuota });
    if (used !== null) this.saw(accountId, day, used);
    return used;
  }

  /**
   * Writes the touched counters' totals to their rows, in one database statement. A failed write keeps them
   * touched, for the next flush.
   */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.touched.size === 0) return;
      const batch = this.touched;
      this.touched = new Map();
      try {
        await this.usage.raiseTo([...batch.values()]);
      } catch (error) {
        for (const d of batch.values()) this.saw(d.accountId, d.day, d.queries);
        throw error;
      }
    });
    return this.flushing;
  }

  settle(): Promise<void> {
    return this.flush();
  }

  /** Stops the timer and writes what is left: after the last query this process counts, before Redis closes. */
  async close(): Promise<void> {
    clearInterval(this.flushTimer);
    await this.flush();
  }

  async used(accountId: string, day: string): Promise<number> {
    const counted = await this.redis.hget(this.key(accountId, day), "n");
    if (counted !== null) return Number(counted);
    await this.flush();
    return this.usage.queriesOn(accountId, day);
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
    const seen = this.touched.get(this.key(accountId, day));
    if (seen) seen.queries = Math.max(0, seen.queries - count);
    await this.usage.releaseMany(accountId, day, count);
    await this.scripts.quotaRelease(this.key(accountId, day), count);
  }

  /**
   * Takes what fits of the URLs in Redis in one call, then stores them (BulkStore.complete counts them on the
   * row too); what paid for nothing is given back: URLs another worker answered first (a stalled chunk taken
   * over), or a row ahead of a Redis that lost counts.
   */
  async completeBulkUrls(counted: readonly CountedItem[], quota: { day: string; dailyQuota: number }, now: number): Promise<BulkCompletion[]> {
    if (counted.length === 0) return [];
    const accountId = counted[0]!.item.accountId;
    const key = this.key(accountId, quota.day);
    const [, granted] = await this.reserveMany({ accountId, ...quota }, counted.length);
    if (granted === 0) return counted.map(() => "quota_exhausted");
    let outcomes: BulkCompletion[];
    try {
      outcomes = await this.bulk.complete(counted.slice(0, granted), quota, now);
    } catch (error) {
      await this.scripts.quotaRelease(key, granted).catch(() => {});
      throw error;
    }
    const unpaid = granted - outcomes.filter((outcome) => outcome === "completed").length;
    if (unpaid > 0) await this.scripts.quotaRelease(key, unpaid);
    return [...outcomes, ...counted.slice(granted).map((): BulkCompletion => "quota_exhausted")];
  }

  /** Redis answered `total` for the counter: the row is raised to it at the next flush. */
  private saw(accountId: string, day: string, total: number): void {
    const key = this.key(accountId, day);
    const seen = this.touched.get(key);
    if (seen) seen.queries = Math.max(seen.queries, total);
    else this.touched.set(key, { accountId, day, queries: total });
  }

  private key(accountId: string, day: string): string {
    return quotaCounterKey(this.prefix, day, accountId);
  }

  private async reserveInRedis(wanted: Wanted): Promise<number | null> {
    for (let attempt = 0; attempt < SEED_ATTEMPTS; attempt++) {
      const result = await this.reserveBatched(wanted);
      if (result instanceof Failed) throw result.error;
      if (result !== UNSEEDED) return result;
      // Seeding reads the database: done here, the batches (every account's reservations) never wait for it.
      await this.seed(wanted.accountId, wanted.day);
    }
    throw this.unseedable(wanted.accountId, wanted.day);
  }

  private unseedable(accountId: string, day: string): Error {
    return new RedisUnavailableError(`quota counter ${this.key(accountId, day)} could not be seeded from the database`);
  }

  /**
   * Seeds a missing counter from the database row, once at a time per counter. Whichever process seeds first
   * wins; for the others the counter is no longer missing. What this process counted and has not written yet
   * goes to the row first.
   */
  private seed(accountId: string, day: string): Promise<void> {
    const key = this.key(accountId, day);
    let pending = this.seeding.get(key);
    if (!pending) {
      pending = (async () => {
        await this.flush();
        const recorded = await this.usage.queriesOn(accountId, day);
        await this.scripts.quotaSeed(key, recorded, QUOTA_COUNTER_TTL_MS);
      })().finally(() => this.seeding.delete(key));
      this.seeding.set(key, pending);
    }
    return pending;
  }

  /**
   * One Redis call per counter for the batch's reservations; each caller gets its own count, or null (or is
   * told to seed the counter). A counter that fails fails its own callers only: the others' reservations are
   * made and must be kept.
   */
  private async reserveBatch(batch: Wanted[]): Promise<(number | null | Failed | typeof UNSEEDED)[]> {
    const groups = new Map<string, { wanted: Wanted; callers: number[] }>();
    batch.forEach((wanted, i) => {
      const id = `${this.key(wanted.accountId, wanted.day)} ${wanted.dailyQuota}`;
      const group = groups.get(id);
      if (group) group.callers.push(i);
      else groups.set(id, { wanted, callers: [i] });
    });
    const results: (number | null | Failed | typeof UNSEEDED)[] = batch.map(() => null);
    await Promise.all(
      [...groups.values()].map(async ({ wanted, callers }) => {
        try {
          const [count, granted] = await this.scripts.quotaReserve(this.key(wanted.accountId, wanted.day), wanted.dailyQuota, callers.length, 1);
          if (count === NOT_SEEDED) {
            for (const caller of callers) results[caller] = UNSEEDED;
            return;
          }
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
    for (let attempt = 0; attempt < SEED_ATTEMPTS; attempt++) {
      const [count, granted] = await this.scripts.quotaReserve(key, dailyQuota, wanted, minimum);
      if (count !== NOT_SEEDED) return [count, granted];
      await this.seed(accountId, day);
    }
    throw this.unseedable(accountId, day);
  }
}
