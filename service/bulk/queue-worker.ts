import { DelayedError, Worker, type Job } from "bullmq";
import type { Redis } from "ioredis";
import { countBulkUrl, deleteExpiredBulkJobs, type BulkCountDeps } from "./count-bulk-url.ts";
import { BULK_QUEUE, bullPrefix } from "../../lib/redis/account-keys.ts";
import type { BulkQueue, BulkUrlJobData } from "./queue.ts";
import { log } from "../../lib/log/log.ts";

export interface BulkQueueWorkerOptions extends BulkCountDeps {
  queue: BulkQueue;
  /** A connection for the worker's own use (BullMQ blocks on it while waiting for work). */
  connection: Redis;
  prefix: string;
  /** URLs counted at the same time. */
  concurrency: number;
  /** How long a URL stays locked to a worker that stopped renewing the lock (killed, frozen). */
  lockMs: number;
  retentionDays: number;
}

const HOUR = 3600_000;
/** How often jobs are checked for progress (see sweep). */
const SWEEP_MS = 5_000;
const QUIET_MS = 5 * 60_000;

/**
 * A bulk worker on the BullMQ queue: any number of them, in any number of processes, share the URLs.
 * BullMQ locks each URL to the worker counting it; a worker that dies (kill -9) stops renewing its locks
 * and BullMQ's stalled-job check hands its URLs to the others after `lockMs`. The database commit that
 * stores a result and counts it happens once per URL whatever BullMQ does (BulkStore.complete), so a
 * URL counted twice by two workers is still answered and counted once.
 */
export class BulkQueueWorker {
  private worker: Worker<BulkUrlJobData> | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private cleanupTimer: NodeJS.Timeout | null = null;
  /** Each active job's completed count at the last sweep. */
  private progress = new Map<string, number>();
  private swept = false;
  private lastSweepAt = 0;
  /** Jobs found in order by a sweep, left alone until then. */
  private readonly quietUntil = new Map<string, number>();
  private sweeping: Promise<void> | null = null;

  constructor(private readonly options: BulkQueueWorkerOptions) {}

  start(): void {
    if (this.worker) return;
    const { options } = this;
    this.worker = new Worker<BulkUrlJobData>(BULK_QUEUE, (job, token) => this.process(job, token), {
      connection: options.connection,
      prefix: bullPrefix(options.prefix),
      concurrency: options.concurrency,
      lockDuration: options.lockMs,
      stalledInterval: options.lockMs,
      // A URL held by a dead worker goes back to the queue however often that happens: it is never lost.
      maxStalledCount: Number.MAX_SAFE_INTEGER,
    });
    this.worker.on("error", (error) => log.error({ event: "bulk_worker_error", err: error }));
    this.sweepTimer = setInterval(() => void this.sweep(), SWEEP_MS);
    this.cleanupTimer = setInterval(() => void deleteExpiredBulkJobs(options.store.bulk, options.retentionDays), HOUR);
    void this.sweep();
    void deleteExpiredBulkJobs(options.store.bulk, options.retentionDays);
  }

  /** Stops taking URLs and waits for the ones being counted to be stored. */
  async stop(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    if (this.cleanupTimer) clearInterval(this.cleanupTimer);
    await this.worker?.close();
    await this.sweeping;
    this.worker = null;
  }

  private async process(job: Job<BulkUrlJobData>, token: string | undefined): Promise<void> {
    const outcome = await countBulkUrl(this.options, job.data).catch((error: unknown) => {
      // BullMQ retries it; the line says which job and which request it came from.
      log.error({ event: "bulk_worker_error", bulk_id: job.data.jobId, request_id: job.data.requestId, err: error });
      throw error;
    });
    if (outcome.kind === "paused") {
      // Waits, still queued, for the quota to reset; a raised plan brings it back sooner (see sweep).
      await job.moveToDelayed(outcome.until, token);
      throw new DelayedError();
    }
  }

  /**
   * Jobs that made no progress since the last sweep, jobs unpaused since then, and every job at start
   * get their queued URLs offered again: the API died before enqueueing them, Redis lost them, or their
   * account's quota was raised while they waited for the reset. A sweep of jobs that move along costs one
   * database query.
   */
  sweep(): Promise<void> {
    this.sweeping ??= this.sweepOnce().finally(() => (this.sweeping = null));
    return this.sweeping;
  }

  private async sweepOnce(): Promise<void> {
    try {
      const now = Date.now();
      const jobs = await this.options.store.bulk.active(now);
      const progress = new Map<string, number>();
      for (const job of jobs) {
        progress.set(job.id, job.urlsCompleted);
        const before = this.progress.get(job.id);
        // Not active at the last sweep though older than it: unpaused (a raised plan) since then.
        const unpaused = before === undefined && job.createdAt < this.lastSweepAt;
        const stuck = !this.swept || unpaused || before === job.urlsCompleted;
        if (!stuck || (!unpaused && (this.quietUntil.get(job.id) ?? 0) > now)) continue;
        // A job that is only waiting its turn behind others needs nothing: look at it again in a while.
        const fixed = await this.options.queue.ensureQueued(job);
        if (fixed) this.quietUntil.delete(job.id);
        else this.quietUntil.set(job.id, now + QUIET_MS);
      }
      // A paused job leaves the list: once unpaused it is looked at afresh.
      for (const id of this.quietUntil.keys()) if (!progress.has(id)) this.quietUntil.delete(id);
      this.progress = progress;
      this.swept = true;
      this.lastSweepAt = now;
    } catch (error) {
      log.error({ event: "bulk_sweep_failed", err: error }, "bulk worker: sweep failed, will retry");
    }
  }
}
