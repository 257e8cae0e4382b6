import { addDays } from "../../lib/quota/day.ts";
import type { UsageStore } from "../../lib/store/usage.ts";

export const USAGE_DAYS = 90;

export interface UsageEntry {
  date: string;
  queries: number;
  quota: number;
}

/**
 * The last `days` days up to today, every day present: queries made, and the quota allocated that day
 * (the allocation in force at the end of that day, so later plan changes do not rewrite history).
 */
export async function usageReport(usage: UsageStore, accountId: string, today: string, days = USAGE_DAYS) {
  const from = addDays(today, -(days - 1));
  const [rows, allocations] = await Promise.all([
    usage.between(accountId, from, today),
    usage.allocations(accountId),
  ]);
  const queriesByDay = new Map(rows.map((r) => [r.day, r.queries]));
  const report: Record<string, UsageEntry> = {};
  let a = -1;
  for (let i = 0; i < days; i++) {
    const date = addDays(from, i);
    while (a + 1 < allocations.length && allocations[a + 1]!.day <= date) a++;
    report[date] = { date, queries: queriesByDay.get(date) ?? 0, quota: a >= 0 ? allocations[a]!.dailyQuota : 0 };
  }
  return report;
}
