import type { CountService } from "../counts/count-service.ts";
import type { QuotaClock } from "../../lib/quota/clock.ts";
import type { QuotaCounter } from "../quota/counter.ts";
import type { PlanLimits } from "../../lib/store/accounts.ts";
import type { Store } from "../../lib/store/store.ts";
import type { AccountCache } from "../accounts/account-cache.ts";
import type { BulkStore, CountedItem, QueuedBulkUrl } from "../../lib/store/bulk.ts";
import { networksResult } from "../v2/network-objects.ts";
import type { JobNetworks } from "./job-networks.ts";
import type { HistoryRecorder } from "../history/recorder.ts";
import { countBulkUrlOutcomes } from "../../lib/metrics/metrics.ts";
import type { QuotaAlerts } from "../alerts/quota-alerts.ts";
import { log } from "../../lib/log/log.ts";
import { ResultBatcher } from "./result-batcher.ts";
import type { Lanes } from "./lanes.ts";

export interface BulkCountDeps {
  store: Pick<Store, "accounts" | "usage" | "bulk">;
  counts: CountService;
  clock: QuotaClock;
  quota: QuotaCounter;
  /** Accounts' plans, read again whenever accounts or plans changed. */
  plans: AccountCache<PlanLimits>;
  jobNetworks: JobNetworks;
  /** Notes that the account asked about the URL (whose history it may then read), once it has paid for it. */
  history: Pick<HistoryRecorder, "noteQueried">;
  /** quota.warning and quota.exhausted, from the counts this worker reads and its refusals. */
  quotaAlerts: Pick<QuotaAlerts, "counted" | "refused">;
  /** URLs were completed: their job may have finished (bulk.completed). */
  urlCompleted: () => void;
}

/**
 * `paused`: the account's quota is used up; its jobs wait, URLs still queued, until `until` (see pauseAccount).
 * `left`: not asked about, because the worker is stopping or the quota had room for fewer when they were
 * taken and has more now (a raised plan): offered again at once. `waiting` are the given URLs not stored.
 */
export type BulkUrlOutcome =
  | { kind: "done" }
  | { kind: "paused"; until: number; waiting: QueuedBulkUrl[] }
  | { kind: "left"; waiting: QueuedBulkUrl[] }
  | { kind: "gone" };

export interface CountOptions {
  /** URLs of these asked about at the same time. */
  parallel: number;
  /** The worker's URLs in flight, when it counts several chunks at once: each URL asked about takes one. */
  lanes?: Lanes;
  /** True once the worker is stopping: no more URLs are asked about, those counted are stored. */
  stopping?: () => boolean;
}

/**
 * Counts queued URLs of one bulk job through the same count service (and cache) as single queries (a v2 job
 * asks only its networks), `parallel` at a time, and stores their results and their quota counts in batches
 * (ResultBatcher), each URL once, whichever worker gets there first. Only as many URLs as the quota has room
 * for are asked about.
 */
export async function countBulkUrls(deps: BulkCountDeps, items: readonly QueuedBulkUrl[], options: CountOptions): Promise<BulkUrlOutcome> {
  const outcome = items.length === 0 ? ({ kind: "done" } as const) : await countJobUrls(deps, items, options);
  const left = "waiting" in outcome ? outcome.waiting.length : 0;
  countBulkUrlOutcomes(outcome.kind === "gone" ? "gone" : "done", items.length - left);
  if (outcome.kind === "paused") countBulkUrlOutcomes("paused", left);
  if (log.enabled("debug")) {
    for (const item of items) log.debug({ event: "bulk_url", bulk_id: item.jobId, request_id: item.requestId, url_id: item.id, outcome: outcome.kind });
  }
  return outcome;
}

async function countJobUrls(deps: BulkCountDeps, items: readonly QueuedBulkUrl[], options: CountOptions): Promise<BulkUrlOutcome> {
  const { store, counts, clock, quota, plans } = deps;
  const { accountId, jobId } = items[0]!;
  const planOf = () => plans.get(accountId, () => store.accounts.plan(accountId));
  const plan = await planOf();
  if (!plan) return { kind: "gone" };
  const { day, resetsAt } = clock.today();
  const used = await quota.used(accountId, day);
  // The count before these URLs: a warning the last reservation earned goes out here at the latest.
  deps.quotaAlerts.counted(accountId, day, plan.dailyQuota, used);
  if (used >= plan.dailyQuota) return pauseAccount(deps, accountId, day, plan.dailyQuota, resetsAt, [...items]);
  const networks = await deps.jobNetworks.of(jobId);
  if (networks === undefined) return { kind: "gone" };
  // The account's history of a URL starts before the networks are asked: what this URL observes is its own.
  const askedAt = clock.now();
  let dailyQuota = plan.dailyQuota;
  const results = new ResultBatcher(async (batch) => {
    // The plan may have changed while the networks were asked (a raised plan also unpauses the account's
    // jobs): complete against the plan as it is now, or a stale quota would pause the job until midnight.
    const current = await planOf();
    if (!current) return null;
    dailyQuota = current.dailyQuota;
    const outcomes = await quota.completeBulkUrls(batch, { day, dailyQuota }, clock.now());
    if (outcomes.includes("completed")) deps.urlCompleted();
    return outcomes;
  });
  // The networks are asked only about what the quota has room for now; the rest waits as if refused.
  const asked = items.slice(0, plan.dailyQuota - used);
  const asking = await askAll(asked, options, () => results.stopped, async (item) => {
    results.add({
      item,
      result: networks === null ? { counts: (await counts.lookup(item.countUrl)).counts } : { networks: networksResult(await counts.lookupNetworks(item.countUrl, networks)) },
    });
  }).then(
    (taken) => ({ taken }),
    (error: unknown) => ({ error }),
  );
  // What was counted is stored even when another URL's lookup failed; then the failure is the chunk's.
  await results.end();
  if ("error" in asking) throw asking.error;
  const { taken } = asking;
  if (results.accountGone) return { kind: "gone" };
  if (results.completed.length > 0) await deps.history.noteQueried(accountId, results.completed.map((item) => item.countUrl), askedAt);
  const waiting = [...results.refused, ...asked.slice(taken), ...items.slice(asked.length)];
  if (waiting.length === 0) return { kind: "done" };
  const usedUp = results.refused.length > 0 || (asked.length < items.length && (await quota.used(accountId, day)) >= dailyQuota);
  return usedUp ? pauseAccount(deps, accountId, day, dailyQuota, resetsAt, waiting) : { kind: "left", waiting };
}

/**
 * Runs `task` over the items in order, `parallel` at a time, until `stop()` or the worker's stopping says
 * so: how many were taken. A task that fails stops the rest and fails the whole, once the others are done.
 */
async function askAll<T>(items: readonly T[], options: CountOptions, stop: () => boolean, task: (item: T) => Promise<void>): Promise<number> {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const more = () => next < items.length && !failure && !stop() && !options.stopping?.();
  const lane = async () => {
    while (more()) {
      await options.lanes?.take();
      try {
        if (!more()) break;
        await task(items[next++]!);
      } catch (error) {
        failure ??= { error };
      } finally {
        options.lanes?.give();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.parallel, items.length)) }, lane));
  if (failure) throw (failure as { error: unknown }).error;
  return next;
}

/** A refusal with quota left (reservations in flight that were given back): how long jobs wait before looking again. */
const RECHECK_MS = 2 * 60_000;

/**
 * Pauses the account's jobs until the quota resets, when its counter says the quota is used up. A refusal
 * while the counter says some is left (reservations in flight, given back since) only makes the jobs wait a
 * couple of minutes and look again.
 */
async function pauseAccount(
  deps: BulkCountDeps,
  accountId: string,
  day: string,
  dailyQuota: number,
  resetsAt: number,
  waiting: QueuedBulkUrl[],
): Promise<BulkUrlOutcome> {
  const { store } = deps;
  const used = await deps.quota.used(accountId, day);
  const usedUp = used >= dailyQuota;
  if (usedUp) deps.quotaAlerts.refused(accountId, day, dailyQuota, async () => used);
  const until = usedUp ? resetsAt : Math.min(resetsAt, Date.now() + RECHECK_MS);
  await store.bulk.pause(accountId, until);
  return { kind: "paused", until, waiting };
}

const HOUR = 3600_000;
/** A job that never completes (its account stays out of quota) is kept this much longer than a completed one. */
const INCOMPLETE_GRACE_MS = 30 * 24 * HOUR;

/** Deletes bulk jobs past their retention; every worker runs it hourly (it is idempotent). */
export async function deleteExpiredBulkJobs(bulk: BulkStore, retentionDays: number): Promise<void> {
  try {
    const now = Date.now();
    const retention = retentionDays * 24 * HOUR;
    await bulk.deleteExpired(now - retention, now - retention - INCOMPLETE_GRACE_MS);
  } catch (error) {
    log.error({ event: "bulk_retention_failed", err: error }, "bulk worker: retention cleanup failed");
  }
}
