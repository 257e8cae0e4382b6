import "server-only";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { dashboard } from "../context.ts";

const globalForLimiters = globalThis as unknown as { sharecountLimiters?: Map<string, RateLimiterAbstract> };

/**
 * A rate limiter shared by every dashboard process through Redis when REDIS_URL is set (falling back to
 * this process's memory while Redis does not answer), or in this process's memory otherwise.
 */
export function rateLimiter(name: string, points: number, durationSeconds: number): RateLimiterAbstract {
  const limiters = (globalForLimiters.sharecountLimiters ??= new Map());
  let limiter = limiters.get(name);
  if (!limiter) {
    const { redis, env } = dashboard();
    const memory = new RateLimiterMemory({ keyPrefix: name, points, duration: durationSeconds });
    limiter = redis
      ? new RateLimiterRedis({
          storeClient: redis,
          keyPrefix: `${env.REDIS_PREFIX}:limit:${name}`,
          points,
          duration: durationSeconds,
          insuranceLimiter: memory,
        })
      : memory;
    limiters.set(name, limiter);
  }
  return limiter;
}

export type Limit = readonly [limiter: RateLimiterAbstract, key: string];

export type Taken = { ok: true } | { ok: false; retryAfterMs: number };

/**
 * Takes one point from every limit before the work it guards (a password check, an account creation), each
 * an atomic decrement, so concurrent requests cannot all pass a check made before any of them is charged.
 * When one limit is used up, nothing is taken and the answer says how long to wait.
 */
export async function takeFromLimits(limits: readonly Limit[]): Promise<Taken> {
  const taken: Limit[] = [];
  for (const limit of limits) {
    try {
      await limit[0].consume(limit[1]);
      taken.push(limit);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      await giveBack(taken);
      return { ok: false, retryAfterMs: error.msBeforeNext };
    }
  }
  return { ok: true };
}

/** Returns the points `takeFromLimits` took, for work that turned out not to count against the limit. */
export async function giveBack(limits: readonly Limit[]): Promise<void> {
  for (const [limiter, key] of limits) await limiter.reward(key, 1);
}

export function retryMinutes(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / 60_000));
}
