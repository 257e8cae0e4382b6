import type { Alerts } from "../../lib/alerts/alerts.ts";
import type { PrismaClient } from "../../lib/db/prisma.ts";
import { log } from "../../lib/log/log.ts";

/** Jobs finished this recently and not yet told of are told of by the next sweep. */
export const BULK_ALERT_LOOKBACK_MS = 24 * 3600_000;
/** How often the sweep runs without being poked, and how soon after a poke. */
const SWEEP_EVERY_MS = 30_000;
const POKED_AFTER_MS = 500;

interface FinishedJob {
  id: string;
  account_id: string;
  urls_queued: number | bigint;
  urls_completed: number | bigint;
  completed_at: number | bigint;
}

/**
 * bulk.completed, once per job (once-key `bulk.completed:<id>`): a sweep finds jobs finished in the last 24
 * hours without their event, in one query, and emits theirs. A job's last URL pokes it, so the event goes
 * out within a second; a process killed before it did leaves the job to the next sweep of any worker.
 */
export class BulkAlerts {
  private timer: NodeJS.Timeout | null = null;
  private soon: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly alerts: Alerts,
    private readonly now: () => number,
  ) {}

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => void this.sweep(), SWEEP_EVERY_MS).unref();
    void this.sweep();
  }

  /** A bulk URL was completed: its job may have finished. */
  readonly poke = (): void => {
    if (this.stopped || this.soon) return;
    this.soon = setTimeout(() => {
      this.soon = null;
      void this.sweep();
    }, POKED_AFTER_MS).unref();
  };

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.soon) clearTimeout(this.soon);
    await this.sweeping;
  }

  /** Emits the events due now; never throws (a failed sweep is retried by the next). */
  sweep(): Promise<void> {
    this.sweeping ??= this.sweepOnce(this.now())
      .catch((error: unknown) => log.error({ event: "bulk_alerts_failed", err: error }, "bulk alerts: sweep failed, will retry"))
      .finally(() => (this.sweeping = null));
    return this.sweeping;
  }

  private async sweepOnce(now: number): Promise<void> {
    const since = BigInt(now - BULK_ALERT_LOOKBACK_MS);
    const jobs = await this.prisma.$queryRaw<FinishedJob[]>`
      SELECT j.id, j.account_id, j.urls_queued, j.urls_completed, j.completed_at FROM bulk_job j
      WHERE j.completed_at >= ${since}
        AND NOT EXISTS (SELECT 1 FROM event e WHERE e.account_id = j.account_id AND e.once_key = 'bulk.completed:' || j.id)`;
    for (const job of jobs) {
      const urls = Number(job.urls_queued);
      const completed = Number(job.urls_completed);
      const data = {
        bulk_id: job.id,
        urls,
        completed,
        // Every URL of a finished job was answered (a network that failed for one shows in its result).
        failed: Math.max(0, urls - completed),
        quota_spent: completed,
        finished_at: new Date(Number(job.completed_at)).toISOString(),
      };
      await this.alerts.emit({ accountId: job.account_id, type: "bulk.completed", data, onceKey: `bulk.completed:${job.id}` }, now);
    }
  }
}
