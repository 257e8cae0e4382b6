import type { Env } from "../../lib/env.ts";
import { closeRedis, connectRedis } from "../../lib/redis/redis.ts";
import type { QueuedBulkUrl } from "../../lib/store/bulk.ts";
import type { RuntimeOptions } from "../wiring.ts";
import type { BulkCountDeps } from "./count-bulk-url.ts";
import { BulkQueue } from "./queue.ts";
import { BulkQueueWorker } from "./queue-worker.ts";
import { BulkWorker } from "./worker.ts";
import { log } from "../../lib/log/log.ts";

/** Without Redis: workers take queued URLs straight from the database; a submission wakes this process's. */
export function pollingBulk(env: Env, options: RuntimeOptions, deps: BulkCountDeps) {
  const worker =
    options.worker === false
      ? null
      : new BulkWorker({ ...deps, concurrency: env.BULK_CONCURRENCY, retentionDays: env.BULK_RETENTION_DAYS });
  return {
    worker,
    submitted: async () => worker?.notify(),
    close: async () => {},
  };
}

/** With Redis: URLs go through the BullMQ queue to every worker process. */
export function queueBulk(env: Env, options: RuntimeOptions, deps: BulkCountDeps) {
  // The queue's connection fails fast like the API's (a submission must not hang while Redis is away); the
  // worker's waits for Redis instead, as BullMQ requires of the connection it blocks on.
  const queueConnection = connectRedis(env.REDIS_URL!, { enableAutoPipelining: false });
  const queue = new BulkQueue(queueConnection, env.REDIS_PREFIX, deps.store.bulk);
  const workerConnection =
    options.worker === false
      ? null
      : connectRedis(env.REDIS_URL!, { enableAutoPipelining: false, maxRetriesPerRequest: null, commandTimeout: undefined });
  const worker = workerConnection
    ? new BulkQueueWorker({
        ...deps,
        queue,
        connection: workerConnection,
        prefix: env.REDIS_PREFIX,
        concurrency: env.BULK_CONCURRENCY,
        lockMs: env.BULK_LOCK_MS,
        retentionDays: env.BULK_RETENTION_DAYS,
      })
    : null;
  return {
    worker,
    async submitted(urls: readonly QueuedBulkUrl[]) {
      try {
        await queue.enqueue(urls);
      } catch (error) {
        // The job is stored: a worker's sweep enqueues it once Redis answers again.
        log.error({ event: "bulk_enqueue_failed", bulk_id: urls[0]?.jobId, err: error }, "the bulk job could not be enqueued now; the workers will pick it up");
      }
    },
    async close() {
      await queue.close();
      await closeRedis(queueConnection);
      if (workerConnection) await closeRedis(workerConnection);
    },
  };
}
