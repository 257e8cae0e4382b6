/**
 * The Redis keys that hold an account's state on the scale stack, named once: their writers (the bulk queue,
 * the quota counters) and account deletion (lib/accounts/account-redis.ts), which removes them, read them here.
 */

/** The BullMQ queue of bulk URLs: one BullMQ job per URL. */
export const BULK_QUEUE = "bulk-urls";

/** Where a deployment's BullMQ keys live. */
export const bullPrefix = (prefix: string) => `${prefix}:bull`;

/** One BullMQ job id per bulk URL: adding a URL that is already in the queue is a no-op. */
export const queueJobId = (urlId: number) => `url-${urlId}`;

/** An account's quota counter for one quota day. */
export const quotaCounterKey = (prefix: string, day: string, accountId: string) => `${prefix}:quota:${day}:${accountId}`;

/** A quota day lasts at most 25 hours in any time zone; a counter outlives it and then expires on its own. */
export const QUOTA_COUNTER_TTL_MS = 2 * 24 * 3600_000;
