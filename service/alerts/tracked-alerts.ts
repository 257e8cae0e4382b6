import { MILESTONES } from "../../lib/alerts/alert-types.ts";
import type { Alerts, Emitted } from "../../lib/alerts/alerts.ts";
import { DEFAULT_PREFERENCES } from "../../lib/alerts/alert-settings.ts";
import type { PrismaClient } from "../../lib/db/prisma.ts";
import type { ObservedValues } from "../../lib/history/observed.ts";
import { quotaDay } from "../../lib/quota/day.ts";
import type { HistoryStore } from "../../lib/store/history.ts";
import { Background } from "./fire-and-forget.ts";
import { emptyTotals, observe, SPIKE_WINDOW_HOURS, type Step, type UrlTotals } from "./url-totals.ts";

/** An account tracking a URL, with its spike thresholds. */
interface Watcher {
  accountId: string;
  minIncrease: number;
  ratio: number;
}

/** The index of who tracks what is read again this often (and soon after a URL is tracked or untracked). */
export const WATCHERS_MAX_AGE_MS = 60_000;
/** URLs whose recent totals are read from the history in one query. */
const SEED_BATCH = 500;
const HOUR = 3600_000;

interface Pending {
  url: string;
  at: number;
  values: ObservedValues;
}

/**
 * tracked_url.spike and tracked_url.milestone, evaluated as observations are recorded, with no query of their
 * own per observation: who tracks which URL (and their spike thresholds) is an index in memory, read whole in
 * one query a minute; each tracked URL's recent totals live in memory too, read from the history in batches
 * the first time the URL is observed in this process. Totals sum the networks' latest headline numbers (every
 * network observed, whatever an account shows).
 */
export class TrackedAlerts {
  private watchers = new Map<number, Watcher[]>();
  private loadedAt = -Infinity;
  private loading: Promise<void> | null = null;
  private readonly totals = new Map<number, UrlTotals>();
  private readonly unseeded = new Map<number, Pending[]>();
  private seeding: Promise<void> | null = null;
  private readonly background = new Background("tracked URL alert");

  constructor(
    private readonly prisma: PrismaClient,
    private readonly history: Pick<HistoryStore, "pointsOfMany">,
    private readonly alerts: Alerts,
    private readonly timeZone: string,
  ) {}

  /** Tracked URLs were added or removed: read the index again before the next observation is judged. */
  readonly trackedChanged = (): void => {
    this.loadedAt = -Infinity;
  };

  /** An observation of the URL with this id was recorded: costs a map lookup unless someone tracks the URL. */
  readonly observed = (urlId: number, url: string, at: number, values: ObservedValues): void => {
    if (at - this.loadedAt > WATCHERS_MAX_AGE_MS) this.reload(at);
    const watchers = this.watchers.get(urlId);
    if (!watchers) return;
    const totals = this.totals.get(urlId);
    if (totals) return this.judge(urlId, url, at, observe(totals, at, values), watchers);
    const waiting = this.unseeded.get(urlId);
    if (waiting) waiting.push({ url, at, values });
    else this.unseeded.set(urlId, [{ url, at, values }]);
    this.seeding ??= this.seed()
      .catch((error: unknown) => console.error("tracked URL alerts: recent totals not read", error))
      .finally(() => (this.seeding = null));
  };

  /** Resolves once the index is loaded and every emission started so far has ended (for tests and a clean stop). */
  async settled(): Promise<void> {
    for (;;) {
      await this.loading;
      await this.seeding;
      await this.background.settled();
      if (!this.loading && !this.seeding) return;
    }
  }

  /** Reads who tracks what (one query), now, in the background. */
  reload(now: number): void {
    if (this.loading) return;
    this.loadedAt = now;
    this.loading = this.load()
      .catch((error: unknown) => {
        this.loadedAt = -Infinity;
        console.error("tracked URL alerts: index not read, will retry", error);
      })
      .finally(() => (this.loading = null));
  }

  private async load(): Promise<void> {
    const rows = await this.prisma.$queryRaw<{ url_id: number | bigint; account_id: string; min_increase: number | null; ratio: number | null }[]>`
      SELECT t.url_id, t.account_id, s.spike_min_increase AS min_increase, s.spike_ratio AS ratio
      FROM tracked_url t LEFT JOIN alert_settings s ON s.account_id = t.account_id`;
    const watchers = new Map<number, Watcher[]>();
    for (const row of rows) {
      const id = Number(row.url_id);
      const watcher = {
        accountId: row.account_id,
        minIncrease: row.min_increase ?? DEFAULT_PREFERENCES.spikeMinIncrease,
        ratio: row.ratio ?? DEFAULT_PREFERENCES.spikeRatio,
      };
      const list = watchers.get(id);
      if (list) list.push(watcher);
      else watchers.set(id, [watcher]);
    }
    this.watchers = watchers;
    // Totals of URLs nobody tracks any more are forgotten.
    for (const id of this.totals.keys()) if (!watchers.has(id)) this.totals.delete(id);
  }

  /** Reads the recent totals of URLs observed before they were known here, in batches, then judges what waited. */
  private async seed(): Promise<void> {
    // One turn later: the observations of this turn join the batch.
    await Promise.resolve();
    while (this.unseeded.size > 0) {
        const batch = [...this.unseeded.entries()].slice(0, SEED_BATCH);
        for (const [id] of batch) this.unseeded.delete(id);
        const last = Math.max(...batch.flatMap(([, pending]) => pending.map((p) => p.at)));
        const points = await this.history.pointsOfMany(batch.map(([id]) => id), last - (SPIKE_WINDOW_HOURS + 1) * HOUR, last);
        for (const [id, pending] of batch) {
          const totals = emptyTotals();
          const seen = new Set(pending.map((p) => p.at));
          // The history holds this batch's observations already (recorded before they were judged).
          for (const point of points.get(id) ?? []) if (!seen.has(point.at)) observe(totals, point.at, point.values);
          this.totals.set(id, totals);
          const watchers = this.watchers.get(id);
          for (const p of pending) {
            const step = observe(totals, p.at, p.values);
            if (watchers) this.judge(id, p.url, p.at, step, watchers);
          }
        }
    }
  }

  private judge(urlId: number, url: string, at: number, step: Step | null, watchers: readonly Watcher[]): void {
    if (!step || step.before === null) return;
    const day = quotaDay(at, this.timeZone);
    const milestone = highestCrossed(step.before, step.after);
    for (const watcher of watchers) {
      const from = step.windowLow;
      if (from !== null && step.after - from >= watcher.minIncrease && step.after >= watcher.ratio * from) {
        const data = { url, network: step.grewMost ?? "all", from, to: step.after, window_hours: SPIKE_WINDOW_HOURS };
        this.emit({ accountId: watcher.accountId, type: "tracked_url.spike", data, onceKey: `spike:${urlId}:${day}` }, at);
      }
      if (milestone !== null) {
        const data = { url, total: step.after, milestone };
        this.emit({ accountId: watcher.accountId, type: "tracked_url.milestone", data, onceKey: `milestone:${urlId}:${milestone}` }, at);
      }
    }
  }

  private emit(event: Emitted<"tracked_url.spike"> | Emitted<"tracked_url.milestone">, at: number): void {
    this.background.run(() => this.alerts.emit(event, at));
  }
}

/** The highest milestone passed going from `before` to `after`, or null. */
export function highestCrossed(before: number, after: number): number | null {
  let crossed: number | null = null;
  for (const mark of MILESTONES) if (before < mark && after >= mark) crossed = mark;
  return crossed;
}
