import type { CountService } from "../counts/count-service.ts";
import type { QuotaClock } from "../quota/clock.ts";
import type { QueuedBulkUrl, Store } from "../store/types.ts";

export interface BulkWorkerOptions {
  store: Store;
  counts: CountService;
  clock: QuotaClock;
  /** URLs counted at the same time (each asks every network in parallel). */
  concurrency: number;
  retentionDays: number;
  /** How often to look for work nobody announced (paused jobs whose quota has reset, jobs from another process). */
  pollMs?: number;
}

const BATCH = 500;
const HOUR = 3600_000;

/**
 * Counts queued bulk URLs with bounded concurrency, through the same count service (and cache) as single
 * queries. All state is in the database: a URL is answered and counted in one transaction, so a process
 * killed mid-job leaves its URLs queued and the next start finishes them, each counted once.
 */
export class BulkWorker {
  private running = false;
  private buffer: QueuedBulkUrl[] = [];
  private cursor = 0;
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

  private async refill(): Promise<void> {
    const { store } = this.options;
    const now = Date.now();
    let rows = await store.queuedBulkUrls(this.cursor, BATCH, now);
    if (rows.length === 0 && this.cursor > 0) {
      this.cursor = 0;
      rows = await store.queuedBulkUrls(0, BATCH, now);
    }
    const last = rows.at(-1);
    if (last) this.cursor = last.id;
    this.buffer = rows.filter((r) => !this.inFlight.has(r.id));
  }

  private async process(item: QueuedBulkUrl): Promise<void> {
    const { store, counts, clock } = this.options;
    try {
      const plan = await store.accountPlan(item.accountId);
      if (!plan) return;
      const { day, resetsAt } = clock.today();
      if ((await store.queriesOn(item.accountId, day)) >= plan.dailyQuota) {
        await this.pause(item.accountId, resetsAt);
        return;
      }
      const lookup = await counts.lookup(item.countUrl);
      const quota = { day, dailyQuota: plan.dailyQuota };
      const outcome = await store.completeBulkUrl(item, quota, JSON.stringify(lookup.counts), Date.now());
      if (outcome === "quota_exhausted") await this.pause(item.accountId, resetsAt);
    } catch (error) {
      this.failed(error);
    }
  }

  /** The account's quota is used up: its jobs wait, URLs still queued, until the quota resets. */
  private async pause(accountId: string, until: number): Promise<void> {
    await this.options.store.pauseBulkJobs(accountId, until);
    this.buffer = this.buffer.filter((i) => i.accountId !== accountId);
  }

  /** The URL stays queued; pausing briefly keeps a database outage from turning into a busy loop. */
  private failed(error: unknown): void {
    console.error("bulk worker: will retry", error);
    this.errorPauseUntil = Date.now() + 1000;
  }

  private async cleanup(): Promise<void> {
    try {
      await this.options.store.deleteBulkJobsCompletedBefore(Date.now() - this.options.retentionDays * 24 * HOUR);
    } catch (error) {
      console.error("bulk worker: retention cleanup failed", error);
    }
  }
}
