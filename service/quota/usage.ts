import { addDays } from "../../lib/quota/day.ts";
import type { Allocation, Refusals, UsageStore } from "../../lib/store/usage.ts";
import { DEFAULT_USAGE_RANGE_DAYS, MAX_USAGE_RANGE_DAYS } from "../../lib/v2/usage-schemas.ts";
import { ApiError } from "../http/errors.ts";

export const USAGE_DAYS = 90;

export interface UsageEntry {
  date: string;
  queries: number;
  quota: number;
}

export interface UsageDayReport {
  day: string;
  served: number;
  refused: Refusals;
  quota: number;
}

/** The days `from` to `to`, both included. */
const daysFrom = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

/** Each day's allocation: the one in force at the end of that day (later plan changes do not rewrite history); 0 before the first. */
function allocationsOn(allocations: readonly Allocation[], days: readonly string[]): number[] {
  let a = -1;
  return days.map((date) => {
    while (a + 1 < allocations.length && allocations[a + 1]!.day <= date) a++;
    return a >= 0 ? allocations[a]!.dailyQuota : 0;
  });
}

/**
 * The last `days` days up to today, every day present: queries made, and the quota allocated that day
 * (the allocation in force at the end of that day, so later plan changes do not rewrite history).
 */
export async function usageReport(usage: UsageStore, accountId: string, today: string, days = USAGE_DAYS) {
  const from = addDays(today, -(days - 1));
  const [rows, allocations] = await Promise.all([usage.between(accountId, from, today), usage.allocations(accountId)]);
  const queriesByDay = new Map(rows.map((r) => [r.day, r.queries]));
  const dates = Array.from({ length: days }, (_, i) => addDays(from, i));
  const quotas = allocationsOn(allocations, dates);
  const report: Record<string, UsageEntry> = {};
  dates.forEach((date, i) => (report[date] = { date, queries: queriesByDay.get(date) ?? 0, quota: quotas[i]! }));
  return report;
}

/**
 * The quota days a usage request asks for: `from` and `to` as given (both included), else the
 * DEFAULT_USAGE_RANGE_DAYS days ending on `to`, or on today (the caller's, in the quota time zone).
 */
export function usageRange(today: string, from: string | undefined, to: string | undefined): { from: string; to: string } {
  const end = to ?? today;
  const start = from ?? addDays(end, -(DEFAULT_USAGE_RANGE_DAYS - 1));
  if (start > end) throw new ApiError("invalid_parameter", 400, `from must be on or before to (${end}).`);
  if (daysFrom(start, end) > MAX_USAGE_RANGE_DAYS) {
    throw new ApiError("invalid_parameter", 400, `A usage range spans at most ${MAX_USAGE_RANGE_DAYS} days.`);
  }
  return { from: start, to: end };
}

/** Every day of the range, oldest first, zeros where nothing was counted: queries served and refused, and the day's quota. */
export async function usageDays(usage: UsageStore, accountId: string, range: { from: string; to: string }): Promise<UsageDayReport[]> {
  const [served, refused, allocations] = await Promise.all([
    usage.between(accountId, range.from, range.to),
    usage.refusalsBetween(accountId, range.from, range.to),
    usage.allocations(accountId),
  ]);
  const servedOn = new Map(served.map((r) => [r.day, r.queries]));
  const refusedOn = new Map(refused.map((r) => [r.day, r.refused]));
  const dates = Array.from({ length: daysFrom(range.from, range.to) }, (_, i) => addDays(range.from, i));
  const quotas = allocationsOn(allocations, dates);
  return dates.map((day, i) => ({
    day,
    served: servedOn.get(day) ?? 0,
    refused: refusedOn.get(day) ?? { quota: 0, whitelist: 0, invalid: 0 },
    quota: quotas[i]!,
  }));
}
