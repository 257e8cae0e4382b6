/** Which plan a bulk job of so many URLs needs: plain arithmetic, apart from the URL reader (loaded lazily). */

/** How many URLs must go before a job of `count` fits a batch limit of `limit` (0 when it fits). */
export function excessOverLimit(count: number, limit: number): number {
  return Math.max(0, count - limit);
}

export interface BulkPlan {
  name: string;
  bulkBatchLimit: number;
}

/** The smallest plan whose batch limit holds `count` URLs, or null when none does. */
export function planFitting(count: number, plans: readonly BulkPlan[]): BulkPlan | null {
  const fitting = plans.filter((plan) => plan.bulkBatchLimit >= Math.max(count, 1));
  return fitting.reduce<BulkPlan | null>((best, plan) => (!best || plan.bulkBatchLimit < best.bulkBatchLimit ? plan : best), null);
}
