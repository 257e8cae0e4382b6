import type { Redis } from "ioredis";
import { LRUCache } from "lru-cache";
import type { NetworkFailure } from "./types.ts";

/** A token bucket: `capacity` calls, refilled evenly over `periodMs`. */
class TokenBucket {
  private tokens: number;
  private updatedAt: number;
  constructor(
    private readonly capacity: number,
    private readonly periodMs: number,
    now: number,
  ) {
    this.tokens = capacity;
    this.updatedAt = now;
  }
  take(now: number): boolean {
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.updatedAt) * this.capacity) / this.periodMs);
    this.updatedAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/**
 * Keeps one network inside its rate budgets and backs off after it throttles us, so a throttled network
 * is asked again only after a growing pause instead of being hammered (which extends the throttling).
 */
export interface NetworkGuard {
  /** Why the network may not be called for this URL now, or null when it may (the call is then budgeted). */
  refusal(url: string): Promise<string | null>;
  record(outcome: NetworkRecord): Promise<void>;
}

type NetworkRecord = { ok: true } | { ok: false; failure: NetworkFailure };

export interface GuardOptions {
  /** Calls allowed per URL per hour (Facebook: 10). */
  perUrlPerHour?: number;
  /** Calls allowed per hour for the whole app. */
  appPerHour?: number;
  backoffInitialMs?: number;
  backoffMaxMs?: number;
  now?: () => number;
}

const HOUR = 3600_000;
const BACKOFF_INITIAL_MS = 30_000;
const BACKOFF_MAX_MS = 15 * 60_000;

const backingOff = (ms: number) => `backing off after throttling for ${Math.ceil(ms / 1000)} s`;
const PER_URL_USED_UP = "per-URL budget used up";
const APP_USED_UP = "app-wide budget used up";

/** This process's guard: the budgets and backoff of `npm start`, or of any process without Redis. */
export class MemoryNetworkGuard implements NetworkGuard {
  private readonly perUrl: LRUCache<string, TokenBucket> | null;
  private readonly app: TokenBucket | null;
  private readonly now: () => number;
  private readonly backoffInitialMs: number;
  private readonly backoffMaxMs: number;
  private backoffMs = 0;
  private blockedUntil = 0;

  constructor(private readonly options: GuardOptions = {}) {
    this.now = options.now ?? Date.now;
    this.backoffInitialMs = options.backoffInitialMs ?? BACKOFF_INITIAL_MS;
    this.backoffMaxMs = options.backoffMaxMs ?? BACKOFF_MAX_MS;
    this.perUrl = options.perUrlPerHour ? new LRUCache({ max: 100_000, ttl: HOUR }) : null;
    this.app = options.appPerHour ? new TokenBucket(options.appPerHour, HOUR, this.now()) : null;
  }

  async refusal(url: string): Promise<string | null> {
    const now = this.now();
    if (now < this.blockedUntil) return backingOff(this.blockedUntil - now);
    if (this.perUrl && this.options.perUrlPerHour) {
      let bucket = this.perUrl.get(url);
      if (!bucket) {
        bucket = new TokenBucket(this.options.perUrlPerHour, HOUR, now);
        this.perUrl.set(url, bucket);
      }
      if (!bucket.take(now)) return PER_URL_USED_UP;
    }
    if (this.app && !this.app.take(now)) return APP_USED_UP;
    return null;
  }

  async record(outcome: NetworkRecord): Promise<void> {
    if (outcome.ok) {
      this.backoffMs = 0;
    } else if (outcome.failure === "throttled") {
      this.backoffMs = Math.min(this.backoffMaxMs, this.backoffMs ? this.backoffMs * 2 : this.backoffInitialMs);
      this.blockedUntil = this.now() + this.backoffMs;
    }
  }
}

const NOW_MS = `local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

// KEYS[1] backoff hash, KEYS[2] the URL's bucket, KEYS[3] the app's bucket; ARGV[1] per-URL capacity and
// ARGV[2] app capacity per ARGV[3] ms (0: no such budget). {0}: may call (budgets taken); {1, ms}: backing
// off; {2}: per-URL budget used up; {3}: app budget used up. Token buckets, refilled evenly.
const REFUSAL = `
${NOW_MS}
local blocked = tonumber(redis.call('HGET', KEYS[1], 'until') or '0')
if now < blocked then return {1, blocked - now} end
local period = tonumber(ARGV[3])
local function level(key, capacity)
  local bucket = redis.call('HMGET', key, 'tokens', 'at')
  if not bucket[1] then return capacity end
  return math.min(capacity, tonumber(bucket[1]) + (now - tonumber(bucket[2])) * capacity / period)
end
local url, app
if tonumber(ARGV[1]) > 0 then url = level(KEYS[2], tonumber(ARGV[1])) if url < 1 then return {2} end end
if tonumber(ARGV[2]) > 0 then app = level(KEYS[3], tonumber(ARGV[2])) if app < 1 then return {3} end end
if url then redis.call('HSET', KEYS[2], 'tokens', tostring(url - 1), 'at', now) redis.call('PEXPIRE', KEYS[2], period) end
if app then redis.call('HSET', KEYS[3], 'tokens', tostring(app - 1), 'at', now) redis.call('PEXPIRE', KEYS[3], period) end
return {0}`;

// KEYS[1] backoff hash; ARGV[1] 1 after a throttling answer, 0 after a good one; ARGV[2] initial, ARGV[3] max ms.
const RECORD = `
local ms = tonumber(redis.call('HGET', KEYS[1], 'ms') or '0')
if ARGV[1] == '0' then
  if ms > 0 then redis.call('HSET', KEYS[1], 'ms', 0) end
  return 0
end
${NOW_MS}
if ms > 0 then ms = math.min(tonumber(ARGV[3]), ms * 2) else ms = tonumber(ARGV[2]) end
redis.call('HSET', KEYS[1], 'ms', ms, 'until', now + ms)
redis.call('PEXPIRE', KEYS[1], 4 * tonumber(ARGV[3]))
return ms`;

interface GuardScripts {
  guardRefusal(backoff: string, url: string, app: string, perUrl: number, perApp: number, periodMs: number): Promise<number[]>;
  guardRecord(backoff: string, throttled: 0 | 1, initialMs: number, maxMs: number): Promise<number>;
}

/**
 * The guard shared by every process through Redis: one network's budgets are the app's, however many API
 * processes and workers call it, and a throttling answer seen by one makes all of them back off.
 */
export class RedisNetworkGuard implements NetworkGuard {
  private readonly scripts: GuardScripts;

  constructor(
    redis: Redis,
    /** This network's keys start with it. */
    private readonly prefix: string,
    private readonly options: Pick<GuardOptions, "perUrlPerHour" | "appPerHour"> = {},
  ) {
    redis.defineCommand("guardRefusal", { numberOfKeys: 3, lua: REFUSAL });
    redis.defineCommand("guardRecord", { numberOfKeys: 1, lua: RECORD });
    this.scripts = redis as unknown as GuardScripts;
  }

  async refusal(url: string): Promise<string | null> {
    const [code, ms] = await this.scripts.guardRefusal(
      `${this.prefix}:backoff`,
      `${this.prefix}:url:${url}`,
      `${this.prefix}:app`,
      this.options.perUrlPerHour ?? 0,
      this.options.appPerHour ?? 0,
      HOUR,
    );
    if (code === 1) return backingOff(ms!);
    if (code === 2) return PER_URL_USED_UP;
    if (code === 3) return APP_USED_UP;
    return null;
  }

  async record(outcome: NetworkRecord): Promise<void> {
    if (!outcome.ok && outcome.failure !== "throttled") return;
    await this.scripts.guardRecord(`${this.prefix}:backoff`, outcome.ok ? 0 : 1, BACKOFF_INITIAL_MS, BACKOFF_MAX_MS);
  }
}
