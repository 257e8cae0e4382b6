import type { PrismaClient } from "../db/prisma.ts";

export const PLAN_NAMES = ["free", "plus", "business", "dedicated"] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

/** Defaults written on first start; operators change them in the database (`plan:set`), and changes are kept. */
export const DEFAULT_PLANS: Record<
  PlanName,
  { dailyQuota: number; bulkBatchLimit: number; customTtlAllowed: boolean; trackedUrlLimit: number }
> = {
  free: { dailyQuota: 500, bulkBatchLimit: 0, customTtlAllowed: false, trackedUrlLimit: 100 },
  plus: { dailyQuota: 10_000, bulkBatchLimit: 500, customTtlAllowed: false, trackedUrlLimit: 5_000 },
  business: { dailyQuota: 100_000, bulkBatchLimit: 1_000, customTtlAllowed: false, trackedUrlLimit: 50_000 },
  dedicated: { dailyQuota: 1_000_000, bulkBatchLimit: 10_000, customTtlAllowed: true, trackedUrlLimit: 500_000 },
};

export async function ensureDefaultPlans(prisma: PrismaClient): Promise<void> {
  for (const [name, limits] of Object.entries(DEFAULT_PLANS)) {
    await prisma.plan.upsert({ where: { name }, create: { name, ...limits }, update: {} });
  }
}
