/**
 * The Redis keys that hold an account's state on the scale stack, named once: their writers (the bulk queue,
 * the quota counters) and account deletion (lib/accounts/account-redis.ts), which removes them, read them here.
 */

/** The BullMQ queue of bulk URLs: one BullMQ job per chunk of a bulk job's URLs. */
export const BULK_QUEUE = "bulk-urls";

/**
 * URL ids per chunk. A chunk is a range of ids within one bulk job, so every URL belongs to exactly one chunk
 * whoever enqueues it: the queue, locks and recovery work a chunk at a time, and a worker stores a chunk's
 * results in one database statement instead of one per URL.
 */
export const BULK_CHUNK = 32;

/** Where a deployment's BullMQ keys live. */
export const bullPrefix = (prefix: string) => `${prefix}:bull`;

/** The BullMQ job id of the chunk holding a bulk URL: adding a chunk that is already in the queue is a no-op. */
export const chunkJobId = (bulkJobId: string, urlId: number) => `chunk-${bulkJobId}-${Math.floor(urlId / BULK_CHUNK)}`;

/** An account's quota counter for one quota day. */
export const quotaCounterKey = (prefix: string, day: string, accountId: string) => `${prefix}:quota:${day}:${accountId}`;

/** A quota day lasts at most 25 hours in any time zone; a counter outlives it and then expires on its own. */
export const QUOTA_COUNTER_TTL_MS = 2 * 24 * 3600_000;
