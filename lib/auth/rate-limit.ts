import "server-only";
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from "rate-limiter-flexible";
import { dashboard } from "../dashboard/context.ts";

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
