import type { CountService } from "../counts/count-service.ts";
import type { QuotaClock } from "../../lib/quota/clock.ts";
import type { QuotaCounter } from "../quota/counter.ts";
import type { PlanLimits } from "../../lib/store/accounts.ts";
import type { Store } from "../../lib/store/store.ts";
import type { AccountCache } from "../accounts/account-cache.ts";
import type { BulkStore, QueuedBulkUrl } from "../../lib/store/bulk.ts";
import { networksResult } from "../v2/network-objects.ts";
import type { JobNetworks } from "./job-networks.ts";
import type { HistoryRecorder } from "../history/recorder.ts";
import { countBulkUrlOutcome } from "../../lib/metrics/metrics.ts";
import type { QuotaAlerts } from "../alerts/quota-alerts.ts";
import { log } from "../../lib/log/log.ts";

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
  /** A URL was completed: its job may have finished (bulk.completed). */
  urlCompleted: () => void;
}

/** `paused`: the account's quota is used up; its jobs wait, URLs still queued, until `until` (see pauseAccount). */
export type BulkUrlOutcome = { kind: "done" } | { kind: "paused"; until: number } | { kind: "gone" };

/**
 * Counts one queued bulk URL through the same count service (and cache) as single queries (a v2 job asks
 * only its networks), and stores its result and its quota count together, once, whichever worker gets
 * there first.
 */
export async function countBulkUrl(deps: BulkCountDeps, item: QueuedBulkUrl): Promise<BulkUrlOutcome> {
  const outcome = await countOne(deps, item);
  countBulkUrlOutcome(outcome.kind);
  if (log.enabled("debug")) log.debug({ event: "bulk_url", bulk_id: item.jobId, request_id: item.requestId, url_id: item.id, outcome: outcome.kind });
  return outcome;
}

async function countOne(deps: BulkCountDeps, item: QueuedBulkUrl): Promise<BulkUrlOutcome> {
  const { store, counts, clock, quota, plans } = deps;
  const planOf = () => plans.get(item.accountId, () => store.accounts.plan(item.accountId));
  const plan = await planOf();
  if (!plan) return { kind: "gone" };
  const { day, resetsAt } = clock.today();
  const pause = (dailyQuota: number) => pauseAccount(deps, item.accountId, day, dailyQuota, resetsAt);
  const used = await quota.used(item.accountId, day);
  // The count before this URL: a warning the last URL's reservation earned goes out here at the latest.
  deps.quotaAlerts.counted(item.accountId, day, plan.dailyQuota, used);
  if (used >= plan.dailyQuota) return pause(plan.dailyQuota);
  const networks = await deps.jobNetworks.of(item.jobId);
  if (networks === undefined) return { kind: "gone" };
  // The account's history of the URL starts before the networks are asked: what this URL observes is its own.
  const askedAt = clock.now();
  const result = networks === null ? { counts: (await counts.lookup(item.countUrl)).counts } : { networks: networksResult(await counts.lookupNetworks(item.countUrl, networks)) };
  // The plan may have changed while the networks were asked (a raised plan also unpauses the account's
  // jobs): complete against the plan as it is now, or a stale quota would pause the job until midnight.
  const current = await planOf();
  if (!current) return { kind: "gone" };
  const outcome = await quota.completeBulkUrl(item, { day, dailyQuota: current.dailyQuota }, result, clock.now());
  if (outcome === "quota_exhausted") return pause(current.dailyQuota);
  if (outcome === "completed") {
    await deps.history.noteQueried(item.accountId, [item.countUrl], askedAt);
    deps.urlCompleted();
  }
  return { kind: "done" };
}

/** A refusal with quota left (reservations in flight that were given back): how long jobs wait before looking again. */
const RECHECK_MS = 2 * 60_000;

/**
 * Pauses the account's jobs until the quota resets, when its counter says the quota is used up. A refusal
 * while the counter says some is left (reservations in flight, given back since) only makes the jobs wait a
 * couple of minutes and look again.
 */
async function pauseAccount(deps: BulkCountDeps, accountId: string, day: string, dailyQuota: number, resetsAt: number): Promise<BulkUrlOutcome> {
  const { store } = deps;
  const used = await deps.quota.used(accountId, day);
  const usedUp = used >= dailyQuota;
  if (usedUp) deps.quotaAlerts.refused(accountId, day, dailyQuota, async () => used);
  const until = usedUp ? resetsAt : Math.min(resetsAt, Date.now() + RECHECK_MS);
  await store.bulk.pause(accountId, until);
  return { kind: "paused", until };
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
