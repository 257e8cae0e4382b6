import { AccountError } from "./accounts/accounts.ts";
import type { PrismaClient } from "./db/prisma.ts";
import type { QuotaClock } from "./quota/clock.ts";

export const PLAN_NAMES = ["free", "plus", "business", "dedicated"] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

/** Defaults written on first start; operators change them in the database (`plan:set`), and changes are kept. */
export const DEFAULT_PLANS: Record<PlanName, { dailyQuota: number; bulkBatchLimit: number; customTtlAllowed: boolean }> = {
  free: { dailyQuota: 500, bulkBatchLimit: 0, customTtlAllowed: false },
  plus: { dailyQuota: 10_000, bulkBatchLimit: 500, customTtlAllowed: false },
  business: { dailyQuota: 100_000, bulkBatchLimit: 1_000, customTtlAllowed: false },
  dedicated: { dailyQuota: 1_000_000, bulkBatchLimit: 10_000, customTtlAllowed: true },
};

export async function ensureDefaultPlans(prisma: PrismaClient): Promise<void> {
  for (const [name, limits] of Object.entries(DEFAULT_PLANS)) {
    await prisma.plan.upsert({ where: { name }, create: { name, ...limits }, update: {} });
  }
}

/** One plan's limits, or null when there is no such plan. */
export async function findPlan(prisma: PrismaClient, name: string) {
  return prisma.plan.findUnique({ where: { name } });
}

export async function listPlans(prisma: PrismaClient) {
  return prisma.plan.findMany({ orderBy: { dailyQuota: "asc" } });
}

/** Changes a plan's limits; accounts on it get the new daily quota from today on (earlier days keep theirs), and their paused jobs resume. */
export async function updatePlan(
  prisma: PrismaClient,
  clock: QuotaClock,
  name: string,
  changes: { dailyQuota?: number; bulkBatchLimit?: number; customTtlAllowed?: boolean },
) {
  const { day } = clock.today();
  return prisma.$transaction(async (tx) => {
    // Only a missing plan is "unknown": any other failure (a value the database refuses) must not be reported as one.
    if (!(await tx.plan.findUnique({ where: { name } }))) throw new AccountError(`Unknown plan "${name}"`);
    const plan = await tx.plan.update({ where: { name }, data: changes });
    if (changes.dailyQuota !== undefined) {
      const accounts = await tx.account.findMany({ where: { planName: name }, select: { id: true } });
      for (const { id } of accounts) {
        await tx.quotaAllocation.upsert({
          where: { accountId_day: { accountId: id, day } },
          create: { accountId: id, day, dailyQuota: plan.dailyQuota },
          update: { dailyQuota: plan.dailyQuota },
        });
      }
      // A raised quota lets jobs paused for quota resume now instead of at the next reset.
      await tx.bulkJob.updateMany({
        where: { account: { planName: name }, completedAt: null },
        data: { pausedUntil: null },
      });
    }
    return plan;
  });
}
