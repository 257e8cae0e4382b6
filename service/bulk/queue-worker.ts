import { DelayedError, Worker, type Job } from "bullmq";
import type { Redis } from "ioredis";
import { countBulkUrls, deleteExpiredBulkJobs, type BulkCountDeps } from "./count-bulk-url.ts";
import { BULK_CHUNK, BULK_QUEUE, bullPrefix } from "../../lib/redis/account-keys.ts";
import { chunkUrls, type BulkChunkJobData, type BulkQueue } from "./queue.ts";
import { Lanes } from "./lanes.ts";
import { log } from "../../lib/log/log.ts";

export interface BulkQueueWorkerOptions extends BulkCountDeps {
  queue: BulkQueue;
  /** A connection for the worker's own use (BullMQ blocks on it while waiting for work). */
  connection: Redis;
  prefix: string;
  /** URLs counted at the same time: chunks at once, times URLs of each chunk at once. */
  concurrency: number;
  /** How long a chunk stays locked to a worker that stopped renewing the lock (killed, frozen). */
  lockMs: number;
  retentionDays: number;
}

const HOUR = 3600_000;
/** How often jobs are checked for progress (see sweep). */
const SWEEP_MS = 5_000;
const QUIET_MS = 5 * 60_000;

/**
 * A bulk worker on the BullMQ queue: any number of them, in any number of processes, share the URLs.
 * BullMQ locks each chunk of URLs to the worker counting it; a worker that dies (kill -9) stops renewing its
 * locks and BullMQ's stalled-job check hands its chunks to the others after `lockMs`. The database commit that
 * stores results and counts them happens once per URL whatever BullMQ does (BulkStore.complete), so a
 * URL counted twice by two workers is still answered and counted once.
 */
export class BulkQueueWorker {
  private worker: Worker<BulkChunkJobData> | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private cleanupTimer: NodeJS.Timeout | null = null;
  /** Each active job's completed count at the last sweep. */
  private progress = new Map<string, number>();
  private swept = false;
  private lastSweepAt = 0;
  /** Jobs found in order by a sweep, left alone until then. */
  private readonly quietUntil = new Map<string, number>();
  private sweeping: Promise<void> | null = null;
  private stopping = false;
  private readonly lanes: Lanes;

  constructor(private readonly options: BulkQueueWorkerOptions) {
    this.lanes = new Lanes(options.concurrency);
  }

  start(): void {
    if (this.worker) return;
    this.stopping = false;
    const { options } = this;
    this.worker = new Worker<BulkChunkJobData>(BULK_QUEUE, (job, token) => this.process(job, token), {
      connection: options.connection,
      prefix: bullPrefix(options.prefix),
      // One chunk more than the lanes fill: it starts on lanes the others' slowest URLs leave idle.
      concurrency: Math.ceil(options.concurrency / BULK_CHUNK) + 1,
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

  /** Stops taking URLs, stores those counted and puts the rest of its chunks back in the queue. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    if (this.cleanupTimer) clearInterval(this.cleanupTimer);
    await this.worker?.close();
    await this.sweeping;
    this.worker = null;
  }

  private async process(job: Job<BulkChunkJobData>, token: string | undefined): Promise<void> {
    const parallel = Math.min(this.options.concurrency, BULK_CHUNK);
    const outcome = await countBulkUrls(this.options, chunkUrls(job.data), { parallel, lanes: this.lanes, stopping: () => this.stopping }).catch((error: unknown) => {
      // BullMQ retries it; the line says which job and which request it came from.
      log.error({ event: "bulk_worker_error", bulk_id: job.data.jobId, request_id: job.data.requestId, err: error });
      throw error;
    });
    if (outcome.kind === "paused" || outcome.kind === "left") {
      // What is left of the chunk waits, still queued: for the quota to reset (a raised plan brings it back
      // sooner, see sweep), or not at all (for the other workers when this one stops).
      const waiting = new Set(outcome.waiting.map((url) => url.id));
      await job.updateData({ ...job.data, urls: job.data.urls.filter((url) => waiting.has(url.id)) });
      await job.moveToDelayed(outcome.kind === "paused" ? outcome.until : Date.now(), token);
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
