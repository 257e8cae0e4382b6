import type { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { NetworkFailure } from "./types.ts";

export interface GuardOptions {
  /** Calls allowed per URL per hour (Facebook: 10). */
  perUrlPerHour?: number;
  /** Calls allowed per hour for the whole app. */
  appPerHour?: number;
}

/**
 * Where a guard keeps its budgets and backoff: this process's memory (`npm start`, or any process without
 * Redis), or Redis, where every API process and worker shares them: the networks limit the app, not each
 * process, and a throttling answer seen by one makes all of them back off.
 */
export type GuardState = { kind: "memory" } | { kind: "redis"; redis: Redis; prefix: string };

type NetworkRecord = { ok: true } | { ok: false; failure: NetworkFailure };

const HOUR_SECONDS = 3600;
const BACKOFF_INITIAL_MS = 30_000;
const BACKOFF_MAX_MS = 15 * 60_000;

/**
 * Keeps one network inside its rate budgets and backs off after it throttles us, so a throttled network
 * is asked again only after a growing pause (30 s, doubling to 15 min) instead of being hammered, which
 * extends the throttling.
 */
export class NetworkGuard {
  private readonly perUrl: RateLimiterAbstract | null;
  private readonly app: RateLimiterAbstract | null;
  private readonly backoff: Backoff;

  constructor(state: GuardState = { kind: "memory" }, options: GuardOptions = {}) {
    const limiter = (name: string, points: number | undefined): RateLimiterAbstract | null => {
      if (!points) return null;
      const limits = { points, duration: HOUR_SECONDS };
      return state.kind === "redis"
        ? new RateLimiterRedis({ storeClient: state.redis, keyPrefix: `${state.prefix}:${name}`, ...limits })
        : new RateLimiterMemory({ keyPrefix: name, ...limits });
    };
    this.perUrl = limiter("url", options.perUrlPerHour);
    this.app = limiter("app", options.appPerHour);
    this.backoff = state.kind === "redis" ? new RedisBackoff(state.redis, `${state.prefix}:backoff`) : new MemoryBackoff();
  }

  /** Why the network may not be called for this URL now, or null when it may (the call is then budgeted). */
  async refusal(url: string): Promise<string | null> {
    const waitMs = await this.backoff.remainingMs();
    if (waitMs > 0) return `backing off after throttling for ${Math.ceil(waitMs / 1000)} s`;
    if (this.perUrl && !(await taken(this.perUrl, url))) return "per-URL budget used up";
    if (this.app && !(await taken(this.app, "app"))) return "app-wide budget used up";
    return null;
  }

  async record(outcome: NetworkRecord): Promise<void> {
    if (outcome.ok) await this.backoff.reset();
    else if (outcome.failure === "throttled") await this.backoff.extend();
  }
}

/** Takes one call from the budget; false when it is used up. */
async function taken(limiter: RateLimiterAbstract, key: string): Promise<boolean> {
  try {
    await limiter.consume(key);
    return true;
  } catch (error) {
    if (error instanceof RateLimiterRes) return false;
    throw error;
  }
}

interface Backoff {
  remainingMs(): Promise<number>;
  /** A good answer: the next throttling starts again at the initial pause. */
  reset(): Promise<void>;
  /** A throttling answer: pause, twice as long as last time (up to the maximum). */
  extend(): Promise<void>;
}

class MemoryBackoff implements Backoff {
  private ms = 0;
  private until = 0;
  async remainingMs() {
    return this.until - Date.now();
  }
  async reset() {
    this.ms = 0;
  }
  async extend() {
    this.ms = this.ms ? Math.min(BACKOFF_MAX_MS, this.ms * 2) : BACKOFF_INITIAL_MS;
    this.until = Date.now() + this.ms;
  }
}

// KEYS[1] the backoff hash; ARGV[1] now (ms), ARGV[2] initial and ARGV[3] maximum pause (ms). Atomic, so
// two processes throttled at once double the pause once each, never lose an update.
const EXTEND = `
local ms = tonumber(redis.call('HGET', KEYS[1], 'ms') or '0')
if ms > 0 then ms = math.min(tonumber(ARGV[3]), ms * 2) else ms = tonumber(ARGV[2]) end
redis.call('HSET', KEYS[1], 'ms', ms, 'until', tonumber(ARGV[1]) + ms)
redis.call('PEXPIRE', KEYS[1], 4 * tonumber(ARGV[3]))
return ms`;

// KEYS[1] the backoff hash. Writes only when there is a pause to forget (most answers are good ones).
const RESET = `
if tonumber(redis.call('HGET', KEYS[1], 'ms') or '0') > 0 then redis.call('HSET', KEYS[1], 'ms', 0) end
return 0`;

interface BackoffScripts {
  guardBackoff(key: string, now: number, initialMs: number, maxMs: number): Promise<number>;
  guardReset(key: string): Promise<number>;
}

class RedisBackoff implements Backoff {
  private readonly scripts: BackoffScripts;

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
  ) {
    redis.defineCommand("guardBackoff", { numberOfKeys: 1, lua: EXTEND });
    redis.defineCommand("guardReset", { numberOfKeys: 1, lua: RESET });
    this.scripts = redis as unknown as BackoffScripts;
  }

  async remainingMs() {
    return Number((await this.redis.hget(this.key, "until")) ?? 0) - Date.now();
  }
  async reset() {
    await this.scripts.guardReset(this.key);
  }
  async extend() {
    await this.scripts.guardBackoff(this.key, Date.now(), BACKOFF_INITIAL_MS, BACKOFF_MAX_MS);
  }
}
