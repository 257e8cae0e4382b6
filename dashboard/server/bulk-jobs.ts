import "server-only";
import { dashboard } from "./context.ts";
import type { BulkJob } from "../../lib/store/bulk.ts";
import { pausedUntil, quotaSpent } from "../../lib/bulk/job-state.ts";
import type { BulkJobSummary, BulkOverview } from "../client/bulk/types.ts";

function summary(job: BulkJob, now: number): BulkJobSummary {
  return {
    id: job.id,
    name: job.name,
    urlsQueued: job.urlsQueued,
    urlsCompleted: job.urlsCompleted,
    createdAt: job.createdAt,
    completedAt: job.completedAt,
    pausedUntil: pausedUntil(job, now),
    // A v1 job (submitted through API v1) asked Facebook and Pinterest, as v1 always does.
    networks: job.networks ?? ["facebook", "pinterest"],
    quotaSpent: quotaSpent(job),
  };
}

/** The bulk page's data: the plan's limits, the whitelist the API applies, and the job history. */
export async function bulkOverview(accountId: string): Promise<BulkOverview> {
  const { accounts, env, store, clock } = dashboard();
  const [settings, jobs] = await Promise.all([accounts.bulkSettingsOf(accountId), store.bulk.jobsOf(accountId)]);
  const now = clock.now();
  return {
    ...settings,
    retentionDays: env.BULK_RETENTION_DAYS,
    jobs: jobs.map((job) => summary(job, now)),
  };
}

/** The most URLs a job of this plan may hold (0: the plan has no bulk jobs). */
export async function planBatchLimit(plan: string): Promise<number> {
  return (await dashboard().accounts.findPlan(plan))?.bulkBatchLimit ?? 0;
}

/** One of this account's jobs, or null (another account's job is as unknown as a missing one). */
export async function findBulkJob(accountId: string, id: string): Promise<BulkJobSummary | null> {
  const { store, clock } = dashboard();
  const job = await store.bulk.job(id, accountId);
  return job && summary(job, clock.now());
}
