import { Queue } from "bullmq";
import { addDays } from "../quota/day.ts";
import { BULK_QUEUE, bullPrefix, chunkJobId, QUOTA_COUNTER_TTL_MS, quotaCounterKey } from "../redis/account-keys.ts";
import { closeRedis, connectRedis } from "../redis/redis.ts";

/** The Redis of a scale-out deployment and its key prefix. */
export interface RedisTarget {
  url: string;
  prefix: string;
}

/** Quota days whose counters may still be alive: today's, and those of the days within a counter's lifetime. */
const COUNTER_DAYS = Math.ceil(QUOTA_COUNTER_TTL_MS / 86_400_000);

/**
 * Removes what Redis holds of a deleted account: the BullMQ jobs of its bulk URLs' chunks still queued (a waiting or
 * delayed job would otherwise sit there until its turn; one being counted finds its job gone and ends) and its
 * quota counters. The count cache is keyed by URL and shared: it stays, as the observations do.
 */
export async function forgetAccountInRedis(target: RedisTarget, account: { id: string; queuedUrls: readonly { jobId: string; id: number }[]; today: string }): Promise<void> {
  const redis = connectRedis(target.url, { enableAutoPipelining: false });
  const queue = new Queue(BULK_QUEUE, { connection: redis, prefix: bullPrefix(target.prefix) });
  queue.on("error", () => {});
  try {
    for (const id of new Set(account.queuedUrls.map((url) => chunkJobId(url.jobId, url.id)))) await queue.remove(id);
    const days = Array.from({ length: COUNTER_DAYS + 2 }, (_, i) => addDays(account.today, 1 - i));
    await redis.del(...days.map((day) => quotaCounterKey(target.prefix, day, account.id)));
  } finally {
    await queue.close();
    await closeRedis(redis);
  }
}
