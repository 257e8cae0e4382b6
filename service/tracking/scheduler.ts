import { randomUUID } from "node:crypto";
import { PollingLoop } from "./polling-loop.ts";
import { refreshUrl, type RefreshDeps, type RefreshOutcome } from "./refresh-url.ts";
import { log } from "../../lib/log/log.ts";

export interface SchedulerOptions extends RefreshDeps {
  /** How many URL refreshes the networks' refresh budgets still allow now (the most generous network's). */
  capacity: () => Promise<number>;
  /**
   * URLs refreshed at the same time, and leased per round: a round leases no more than it refreshes at
   * once, so no lease has to outlast a queue behind it.
   */
  concurrency: number;
  /** How long a worker holds a URL it took: longer than one refresh can take; a killed worker's URLs wait this long. */
  leaseMs: number;
  /** How often to look for due URLs when nothing announced any. */
  pollMs: number;
  /** Hourly points older than this many days are compacted to one per day. */
  hourlyDays: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const COMPACT_BATCH = 1_000;

export type RoundResult = Record<RefreshOutcome, number>;

/**
 * Refreshes tracked URLs when they are due, in every worker process: each round leases as many due URLs
 * as the refresh budget allows, the most overdue first, so workers never refresh one slot twice and a
 * killed worker's URLs are taken over when its lease runs out. Once an hour it also compacts old history.
 */
export class RefreshScheduler {
  private readonly worker = randomUUID();
  private rounds = 0;
  private lastCompaction = -Infinity;
  private readonly loop: PollingLoop;

  constructor(private readonly options: SchedulerOptions) {
    this.loop = new PollingLoop("refresh round", options.pollMs, async () => {
      const result = await this.round();
      const compacted = await this.compactHistory();
      return result.refreshed + result.forgotten > 0 || compacted > 0;
    });
  }

  start(): void {
    this.loop.start();
  }

  /** URLs were tracked: look for due ones now rather than at the next poll. */
  notify(): void {
    this.loop.notify();
  }

  /** Stops leasing and waits for the refreshes under way to be stored. */
  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** One round: lease what the budget allows, refresh it; how each refresh ended. */
  async round(): Promise<RoundResult> {
    const result: RoundResult = { refreshed: 0, deferred: 0, forgotten: 0, lost: 0 };
    const capacity = Math.min(this.options.concurrency, Math.floor(await this.options.capacity()));
    if (capacity <= 0) return result;
    // A token per round: a URL this worker leases again after its lease ran out is a new slot.
    const token = `${this.worker}:${++this.rounds}`;
    const due = await this.options.tracked.claimDue(this.options.now(), capacity, this.options.leaseMs, token);
    await Promise.all(
      due.map(async (item) => {
        try {
          result[await refreshUrl(this.options, item, token)]++;
        } catch (error) {
          // Left leased: it is taken again when the lease runs out.
          log.error({ event: "refresh_failed", url: item.url, err: error });
        }
      }),
    );
    return result;
  }

  /** Compacts the history of up to `maxUrls` URLs when an hour has passed since the last compaction. */
  async compactHistory(maxUrls = COMPACT_BATCH): Promise<number> {
    const now = this.options.now();
    if (now - this.lastCompaction < HOUR) return 0;
    const cutoffDay = Math.floor((now - this.options.hourlyDays * DAY) / DAY);
    const compacted = await this.options.history.compact(cutoffDay * 24, maxUrls);
    // A full batch means more is left: the next round goes on.
    if (compacted < maxUrls) this.lastCompaction = now;
    return compacted;
  }
}
