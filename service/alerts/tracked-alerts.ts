import { MILESTONES } from "../../lib/alerts/alert-types.ts";
import type { Alerts, Emitted } from "../../lib/alerts/alerts.ts";
import { DEFAULT_PREFERENCES, type AlertSettings } from "../../lib/alerts/alert-settings.ts";
import type { ObservedValues } from "../../lib/history/observed.ts";
import { quotaDay } from "../../lib/quota/day.ts";
import type { HistoryStore } from "../../lib/store/history.ts";
import type { TrackedStore } from "../../lib/store/tracked.ts";
import { Background } from "./fire-and-forget.ts";
import { emptyTotals, observe, SPIKE_WINDOW_HOURS, type Step } from "./url-totals.ts";
import { WatchIndex } from "./watch-index.ts";
import { log } from "../../lib/log/log.ts";

/** An account's spike thresholds. */
interface Thresholds {
  minIncrease: number;
  ratio: number;
}

/** New tracked URLs (and changed thresholds) are read this often, and soon after this process tracks URLs. */
export const WATCHERS_REFRESH_MS = 5 * 60_000;
const CHANGED_REFRESH_MS = 10_000;
/** Rows added this long before the last read are read again: an add may commit a little after its clock read. */
const COMMIT_MARGIN_MS = 60_000;
/** URLs whose recent totals are read from the history in one query. */
const SEED_BATCH = 500;
/** Observations judged together: in a tight loop the rules' state stays in the CPU caches, between SQLite writes it does not. */
const JUDGE_BATCH = 256;
const HOUR = 3600_000;
const DEFAULT_THRESHOLDS: Thresholds = { minIncrease: DEFAULT_PREFERENCES.spikeMinIncrease, ratio: DEFAULT_PREFERENCES.spikeRatio };

interface Pending {
  urlId: number;
  url: string;
  at: number;
  values: ObservedValues;
}

/**
 * tracked_url.spike and tracked_url.milestone, evaluated as observations are recorded, with no query of their
 * own per observation. Who tracks which URL is an index in memory: read whole once, then only the rows added
 * since (one query every 5 minutes, and soon after this process tracks URLs); a URL untracked meanwhile is
 * checked again before its event is written (events are rare). Spike thresholds come from the small
 * alert_settings table, read with it. Each tracked URL's recent totals live in memory too, read from the
 * history in batches the first time the URL is observed here. Totals sum the networks' latest headline numbers
 * (every network observed, whatever an account shows).
 */
export class TrackedAlerts {
  private readonly watched = new WatchIndex();
  private thresholds = new Map<string, Thresholds>();
  /** When the last read was made (null: nothing read yet): the next reads the rows added since. */
  private readAt: number | null = null;
  private refreshedAt = -Infinity;
  private changed = false;
  private refreshing: Promise<void> | null = null;
  private readonly unseeded = new Map<number, Pending[]>();
  private queued: Pending[] = [];
  private drainScheduled = false;
  private seeding: Promise<void> | null = null;
  private readonly background = new Background("tracked URL alert");

  private readonly tracked: Pick<TrackedStore, "trackingSince" | "trackedAmong">;
  private readonly history: Pick<HistoryStore, "pointsOfMany">;
  private readonly settings: Pick<AlertSettings, "spikeThresholds">;
  private readonly alerts: Alerts;
  private readonly timeZone: string;

  constructor(deps: { tracked: TrackedAlerts["tracked"]; history: TrackedAlerts["history"]; settings: TrackedAlerts["settings"]; alerts: Alerts; timeZone: string }) {
    ({ tracked: this.tracked, history: this.history, settings: this.settings, alerts: this.alerts, timeZone: this.timeZone } = deps);
  }

  /** This process tracked URLs: they are read within seconds. */
  readonly trackedChanged = (): void => {
    this.changed = true;
  };

  /**
   * An observation of the URL with this id was recorded: queued, and judged with the others of its batch (at
   * most 256, or at the end of this turn of the event loop).
   */
  readonly observed = (urlId: number, url: string, at: number, values: ObservedValues): void => {
    if (this.queued.push({ urlId, url, at, values }) >= JUDGE_BATCH) this.drain();
    else if (!this.drainScheduled) {
      this.drainScheduled = true;
      setImmediate(this.drain);
    }
  };

  /** Judges the queued observations: a lookup each, and for a tracked URL the rules. */
  private readonly drain = (): void => {
    this.drainScheduled = false;
    const batch = this.queued;
    this.queued = [];
    for (const pending of batch) this.judgeObservation(pending);
  };

  private judgeObservation(pending: Pending): void {
    const { urlId, url, at, values } = pending;
    const age = at - this.refreshedAt;
    if (age >= WATCHERS_REFRESH_MS || (this.changed && age >= CHANGED_REFRESH_MS)) this.refresh(at);
    const watch = this.watched.get(urlId);
    if (!watch) return;
    if (watch.totals) return this.judge(urlId, url, at, observe(watch.totals, at, values), watch.accounts);
    const waiting = this.unseeded.get(urlId);
    if (waiting) waiting.push(pending);
    else this.unseeded.set(urlId, [pending]);
    this.seeding ??= this.seed()
      .catch((error: unknown) => log.error({ event: "tracked_alerts_failed", err: error }, "tracked URL alerts: recent totals not read"))
      .finally(() => (this.seeding = null));
  }

  /** Resolves once every read and emission started so far has ended (for tests and a clean stop). */
  async settled(): Promise<void> {
    this.drain();
    while (this.refreshing || this.seeding) await Promise.all([this.refreshing, this.seeding]);
    await this.background.settled();
  }

  /** Reads the tracked URLs added since the last read (all of them the first time) and the thresholds, in the background. */
  refresh(now: number): void {
    if (this.refreshing) return;
    this.refreshedAt = now;
    this.changed = false;
    this.refreshing = this.read(now)
      .catch((error: unknown) => {
        this.refreshedAt = -Infinity;
        log.error({ event: "tracked_alerts_failed", err: error }, "tracked URL alerts: tracked URLs not read, will retry");
      })
      .finally(() => (this.refreshing = null));
  }

  private async read(now: number): Promise<void> {
    const since = this.readAt === null ? null : this.readAt - COMMIT_MARGIN_MS;
    const [rows, thresholds] = await Promise.all([this.tracked.trackingSince(since), this.settings.spikeThresholds()]);
    this.thresholds = thresholds;
    for (const row of rows) this.watched.add(row.urlId, row.accountId);
    this.readAt = now;
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
        // The history holds the waiting observations already (recorded before they were judged).
        for (const point of points.get(id) ?? []) if (!seen.has(point.at)) observe(totals, point.at, point.values);
        const watch = this.watched.get(id)!;
        watch.totals = totals;
        for (const p of pending) this.judge(id, p.url, p.at, observe(totals, p.at, p.values), watch.accounts);
      }
    }
  }

  private judge(urlId: number, url: string, at: number, step: Step | null, watchers: string | readonly string[]): void {
    if (!step || step.before === null) return;
    if (typeof watchers === "string") this.judgeFor(watchers, urlId, url, at, step);
    else for (const accountId of watchers) this.judgeFor(accountId, urlId, url, at, step);
  }

  private judgeFor(accountId: string, urlId: number, url: string, at: number, step: Step): void {
    const watcher = this.thresholds.get(accountId) ?? DEFAULT_THRESHOLDS;
    const from = step.windowLow;
    if (from !== null && step.after - from >= watcher.minIncrease && step.after >= watcher.ratio * from) {
      const day = quotaDay(at, this.timeZone);
      const data = { url, network: step.grewMost ?? "all", from, to: step.after, window_hours: SPIKE_WINDOW_HOURS };
      this.emit({ accountId, type: "tracked_url.spike", data, onceKey: `spike:${urlId}:${day}`, urlId }, at);
    }
    const milestone = highestCrossed(step.before!, step.after);
    if (milestone !== null) {
      const data = { url, total: step.after, milestone };
      this.emit({ accountId, type: "tracked_url.milestone", data, onceKey: `milestone:${urlId}:${milestone}`, urlId }, at);
    }
  }


  private emit(event: (Emitted<"tracked_url.spike"> | Emitted<"tracked_url.milestone">) & { urlId: number }, at: number): void {
    const { urlId, ...emitted } = event;
    this.background.run(async () => {
      // The index may be minutes old: events are rare, so each checks that the URL is still tracked.
      if (!(await this.tracked.trackedAmong(event.accountId, [urlId])).has(urlId)) return;
      await this.alerts.emit(emitted, at);
    });
  }
}

/** The highest milestone passed going from `before` to `after`, or null. */
export function highestCrossed(before: number, after: number): number | null {
  let crossed: number | null = null;
  for (const mark of MILESTONES) if (before < mark && after >= mark) crossed = mark;
  return crossed;
}
