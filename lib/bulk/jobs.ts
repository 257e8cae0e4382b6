import "server-only";
import { dashboard } from "../dashboard/context.ts";
import { findPlan } from "../plans.ts";
import type { BulkJobSummary, BulkOverview } from "./types.ts";

interface BulkJobRow {
  id: string;
  urlsQueued: number;
  urlsCompleted: number;
  createdAt: bigint;
  completedAt: bigint | null;
  pausedUntil: bigint | null;
}

function summary(job: BulkJobRow): BulkJobSummary {
  const pausedUntil = job.pausedUntil === null ? null : Number(job.pausedUntil);
  return {
    id: job.id,
    urlsQueued: job.urlsQueued,
    urlsCompleted: job.urlsCompleted,
    createdAt: Number(job.createdAt),
    completedAt: job.completedAt === null ? null : Number(job.completedAt),
    // The worker leaves the last pause time in place after resuming; only a future one means "paused".
    pausedUntil: job.completedAt === null && pausedUntil !== null && pausedUntil > Date.now() ? pausedUntil : null,
  };
}

/** The bulk page's data, read from the database: the plan's limits, the whitelist the API applies, and the job history. */
export async function bulkOverview(accountId: string): Promise<BulkOverview> {
  const { prisma, env } = dashboard();
  const [account, plans, jobs] = await Promise.all([
    prisma.account.findUniqueOrThrow({
      where: { id: accountId },
      select: { whitelistEnabled: true, whitelist: { select: { domain: true } }, plan: { select: { name: true, bulkBatchLimit: true } } },
    }),
    prisma.plan.findMany({ where: { bulkBatchLimit: { gt: 0 } }, orderBy: { bulkBatchLimit: "asc" }, select: { name: true, bulkBatchLimit: true } }),
    prisma.bulkJob.findMany({ where: { accountId }, orderBy: { createdAt: "desc" } }),
  ]);
  return {
    plan: account.plan,
    bulkPlans: plans,
    whitelist: { enabled: account.whitelistEnabled, domains: account.whitelist.map((entry) => entry.domain) },
    retentionDays: env.BULK_RETENTION_DAYS,
    jobs: jobs.map(summary),
  };
}

/** The most URLs a job of this plan may hold (0: the plan has no bulk jobs). */
export async function planBatchLimit(plan: string): Promise<number> {
  return (await findPlan(dashboard().prisma, plan))?.bulkBatchLimit ?? 0;
}

/** One of this account's jobs, or null (another account's job is as unknown as a missing one). */
export async function findBulkJob(accountId: string, id: string): Promise<BulkJobSummary | null> {
  const job = await dashboard().prisma.bulkJob.findFirst({ where: { id, accountId } });
  return job && summary(job);
}
