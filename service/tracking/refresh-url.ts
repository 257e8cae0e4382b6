import { nextRefreshAt, type Cadence } from "../../lib/history/cadence.ts";
import { changeBetween, onlyNetworks, totalOf, type ObservedValues } from "../../lib/history/observed.ts";
import { combine, formsOf } from "../../lib/history/variants.ts";
import { firstObservedAt, type HistoryStore } from "../../lib/store/history.ts";
import type { DueRefresh, Tracker, TrackedStore, TrackedSummary } from "../../lib/store/tracked.ts";
import type { CountService } from "../counts/count-service.ts";
import type { HistoryRecorder } from "../history/recorder.ts";

export interface RefreshDeps {
  tracked: TrackedStore;
  history: HistoryStore;
  recorder: HistoryRecorder;
  counts: Pick<CountService, "refresh">;
  cadence: Cadence;
  now: () => number;
}

/**
 * `refreshed`: counted, due again by the cadence; `deferred`: the budget allowed no call, still due;
 * `forgotten`: no account tracks it any more; `lost`: another worker took the lease over meanwhile.
 */
export type RefreshOutcome = "refreshed" | "deferred" | "forgotten" | "lost";

const DAY = 86_400_000;

/**
 * Refreshes one leased URL for every account tracking it: each form any of them counts is asked once
 * (every fresh answer lands in the history), then each account's combined counts and changes are stored
 * with the next due time, if the lease is still this worker's.
 */
export async function refreshUrl(deps: RefreshDeps, due: DueRefresh, token: string): Promise<RefreshOutcome> {
  const trackers = (await deps.tracked.trackersOf([due.urlId])).get(due.urlId) ?? [];
  if (trackers.length === 0) return (await deps.tracked.forget(due.urlId, token)) ? "forgotten" : "lost";
  const forms = [...new Set(trackers.flatMap((tracker) => formsOf(due.url, tracker)))];
  const results = await Promise.all(forms.map((form) => deps.counts.refresh(form)));
  if (results.every((result) => result.called === 0)) {
    await deps.tracked.releaseLease(due.urlId, token);
    return "deferred";
  }
  const now = new Map(forms.map((form, i) => [form, results[i]!.values]));
  const ids = await deps.recorder.idsOf(forms);
  const refreshedAt = deps.now();
  const summaries = await Promise.all(
    trackers.map(async (tracker) => ({
      accountId: tracker.accountId,
      summary: await summarize(deps.history, formsOf(due.url, tracker), tracker, now, ids, refreshedAt),
    })),
  );
  const next = nextRefreshAt(deps.cadence, due.firstTrackedAt, refreshedAt);
  return (await deps.tracked.completeRefresh(due, token, refreshedAt, next, summaries)) ? "refreshed" : "lost";
}

/**
 * The account's combined counts (every network), and its total and changes over the networks it shows; a change
 * compares only points observed since the account came to the URL (another's earlier points are not its own).
 */
async function summarize(
  history: HistoryStore,
  forms: string[],
  { networks, since }: Pick<Tracker, "networks" | "since">,
  now: Map<string, ObservedValues>,
  ids: Map<string, number>,
  at: number,
): Promise<TrackedSummary> {
  const latest = combine(forms.map((form) => now.get(form)!));
  const changeSince = async (ago: number) => {
    const then = (await Promise.all(forms.map((form) => history.pointAtOrBefore(ids.get(form)!, at - ago)))).map((point) =>
      point && firstObservedAt(point) >= since ? point : null,
    );
    // Only forms observed back then take part: a form first seen since would count as all change.
    const both = forms.flatMap((form, i) => (then[i] ? [{ then: then[i].values, now: now.get(form)! }] : []));
    if (both.length === 0) return null;
    return changeBetween(onlyNetworks(combine(both.map((f) => f.then)), networks), onlyNetworks(combine(both.map((f) => f.now)), networks));
  };
  return { latest, total: totalOf(onlyNetworks(latest, networks)), change7d: await changeSince(7 * DAY), change30d: await changeSince(30 * DAY) };
}
