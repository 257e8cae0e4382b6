import type { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { webhookErrors } from "./webhook-errors.ts";

/**
 * How many test events and retries an account may ask for per minute: each test writes an event, a delivery
 * and an attempt, and each makes a POST, so without a limit one key could fill the tables or flood an endpoint.
 */
export const WEBHOOK_ACTIONS_PER_MINUTE = { test: 10, retry: 30 } as const;

export type LimitedAction = keyof typeof WEBHOOK_ACTIONS_PER_MINUTE;

export interface WebhookLimits {
  /** Takes one of the account's `action`s for this minute; throws `rate_limited` (with the wait) when none is left. */
  take(action: LimitedAction, accountId: string): Promise<void>;
}

/**
 * Per-account limits, as the dashboard's sign-in limits: shared by every process through Redis when there is
 * one (this process's memory stands in while Redis does not answer), else per process. Each take is one atomic
 * decrement before the work, so concurrent requests cannot all pass.
 */
export function webhookLimits(shared: { redis: Redis; prefix: string } | null): WebhookLimits {
  const limiters = new Map<LimitedAction, RateLimiterAbstract>();
  for (const [action, points] of Object.entries(WEBHOOK_ACTIONS_PER_MINUTE) as [LimitedAction, number][]) {
    const memory = new RateLimiterMemory({ keyPrefix: `webhook-${action}`, points, duration: 60 });
    limiters.set(
      action,
      shared
        ? new RateLimiterRedis({ storeClient: shared.redis, keyPrefix: `${shared.prefix}:limit:webhook-${action}`, points, duration: 60, insuranceLimiter: memory })
        : memory,
    );
  }
  return {
    async take(action, accountId) {
      try {
        await limiters.get(action)!.consume(accountId);
      } catch (error) {
        if (!(error instanceof RateLimiterRes)) throw error;
        throw webhookErrors.rateLimited(action, WEBHOOK_ACTIONS_PER_MINUTE[action], error.msBeforeNext);
      }
    },
  };
}
