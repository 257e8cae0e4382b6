import { setImmediate } from "node:timers/promises";
import type { QueuedBulkUrl } from "../../lib/store/bulk.ts";
import { countBulkUrls, deleteExpiredBulkJobs, type BulkCountDeps } from "./count-bulk-url.ts";
import { log } from "../../lib/log/log.ts";

export interface BulkWorkerOptions extends BulkCountDeps {
  /** URLs counted at the same time (each asks every network in parallel). */
  concurrency: number;
  retentionDays: number;
  /** How often to look for work nobody announced (paused jobs whose quota has reset, jobs from another process). */
  pollMs?: number;
}

const HOUR = 3600_000;

/**
 * Counts queued bulk URLs with bounded concurrency, taking them straight from the database (the worker
 * of the one-process setup, and of several processes without Redis; with Redis, BullMQ hands out the
 * URLs, see queue-worker.ts). All state is in the database: a URL is answered and counted in one
 * transaction, so a process killed mid-job leaves its URLs queued and the next start finishes them,
 * each counted once.
 */
export class BulkWorker {
  private running = false;
  private buffer: QueuedBulkUrl[] = [];
  /** Per job, the last URL id taken, so each refill continues where the last one stopped. */
  private readonly cursors = new Map<string, number>();
  private readonly inFlight = new Set<number>();
  private wake: (() => void) | null = null;
  private woken = false;
  private loopDone: Promise<void> = Promise.resolve();
  private cleanupTimer: NodeJS.Timeout | null = null;
  private errorPauseUntil = 0;

  constructor(private readonly options: BulkWorkerOptions) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loopDone = this.loop();
    void this.cleanup();
    this.cleanupTimer = setInterval(() => void this.cleanup(), HOUR);
    this.cleanupTimer.unref();
  }

  /** A job was submitted: look for work now rather than at the next poll. */
  notify(): void {
    const wake = this.wake;
    this.wake = null;
    if (wake) wake();
    else this.woken = true;
  }

  /** Stops taking URLs and waits for the ones being counted to be stored. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.cleanupTimer) clearInterval(this.cleanupTimer);
    this.notify();
    await this.loopDone;
  }

  private async loop(): Promise<void> {
    const active = new Set<Promise<void>>();
    const pollMs = this.options.pollMs ?? 1000;
    while (this.running) {
      while (this.running && active.size < this.options.concurrency && Date.now() >= this.errorPauseUntil) {
        // A URL whose counts are cached is counted without any I/O (SQLite answers synchronously): without a turn
        // of the event loop between URLs, a job of them would hold up every request until it was done.
        await setImmediate();
        const item = await this.next();
        if (!item) break;
        this.inFlight.add(item.id);
        const task = this.process(item).finally(() => {
          active.delete(task);
          this.inFlight.delete(item.id);
          this.notify();
        });
        active.add(task);
      }
      if (!this.running) break;
      if (this.woken) {
        this.woken = false;
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    await Promise.all(active);
  }

  private async next(): Promise<QueuedBulkUrl | null> {
    if (this.buffer.length === 0) {
      try {
        await this.refill();
      } catch (error) {
        this.failed(error);
        return null;
      }
    }
    return this.buffer.shift() ?? null;
  }

  /**
   * Takes an equal share of queued URLs from every active job and interleaves them, so one account's
   * 10,000-URL job does not hold up everyone else's jobs.
   */
  private async refill(): Promise<void> {
    const { bulk } = this.options.store;
    const jobs = await bulk.active(Date.now());
    // About two rounds of work per refill: a job submitted now joins the rotation within one refill.
    const batch = Math.max(16, 2 * this.options.concurrency);
    const share = Math.max(1, Math.ceil(batch / Math.max(1, jobs.length)));
    const perJob = await Promise.all(
      jobs.map(async (job) => {
        const after = this.cursors.get(job.id) ?? 0;
        let rows = await bulk.queued(job, after, share);
        // Past the end: start over, to pick up URLs that were in flight or failed on the last pass.
        if (rows.length === 0 && after > 0) rows = await bulk.queued(job, 0, share);
        this.cursors.set(job.id, rows.at(-1)?.id ?? 0);
        return rows.filter((r) => !this.inFlight.has(r.id));
      }),
    );
    for (const id of this.cursors.keys()) if (!jobs.some((j) => j.id === id)) this.cursors.delete(id);
    const longest = Math.max(0, ...perJob.map((rows) => rows.length));
    this.buffer = [];
    for (let i = 0; i < longest; i++) for (const rows of perJob) if (rows[i]) this.buffer.push(rows[i]!);
  }

  private async process(item: QueuedBulkUrl): Promise<void> {
    try {
      const outcome = await countBulkUrls(this.options, [item], { parallel: 1 });
      // Drop the account's other URLs already taken: they wait with their paused jobs.
      if (outcome.kind === "paused") this.buffer = this.buffer.filter((i) => i.accountId !== item.accountId);
    } catch (error) {
      this.failed(error, item);
    }
  }

  /** The URL stays queued; pausing briefly keeps a database outage from turning into a busy loop. */
  private failed(error: unknown, item?: QueuedBulkUrl): void {
    log.error({ event: "bulk_worker_error", bulk_id: item?.jobId, request_id: item?.requestId, err: error }, "bulk worker: will retry");
    this.errorPauseUntil = Date.now() + 1000;
  }

  private cleanup(): Promise<void> {
    return deleteExpiredBulkJobs(this.options.store.bulk, this.options.retentionDays);
  }
}
