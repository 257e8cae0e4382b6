import { z } from "zod";
import type { Usage } from "./api-schemas.ts";

/** One quota day of the usage report: queries made and the quota allocated that day. */
export interface UsageDay {
  /** The quota day, `YYYY-MM-DD`. */
  date: string;
  queries: number;
  quota: number;
}

/** The ranges the Usage page offers; the API reports 90 days, so that is the longest. */
export const USAGE_RANGES = [7, 30, 90] as const;
export type UsageRange = (typeof USAGE_RANGES)[number];
export const DEFAULT_USAGE_RANGE: UsageRange = 30;

const RANGE_ERROR = `days must be one of ${USAGE_RANGES.join(", ")}`;

/** `?days=` as the dashboard's usage route accepts it. */
export const usageRangeSchema = z.object({
  days: z.coerce
    .number({ error: RANGE_ERROR })
    .pipe(z.literal(USAGE_RANGES, { error: RANGE_ERROR }))
    .default(DEFAULT_USAGE_RANGE),
});

/** The range in a page's `?days=`: a hand-edited or stale link falls back to the default rather than failing. */
export function usageRangeFrom(days: string | null | undefined): UsageRange {
  return USAGE_RANGES.find((range) => String(range) === days) ?? DEFAULT_USAGE_RANGE;
}

/** What the dashboard's usage route answers. */
export interface UsageAnswer {
  days: UsageRange;
  /** Oldest first; the last one is today (in the service's quota time zone). */
  usage: UsageDay[];
}

/**
 * The last `days` days of the report, oldest first (the API's object order is not relied on), from the
 * account's first day: the API reports the days before the account existed with quota 0, and a chart of
 * them would draw a history that never was.
 */
export function lastDays(usage: Usage, days: number): UsageDay[] {
  const range = Object.values(usage)
    .map(({ date, queries, quota }) => ({ date, queries, quota }))
    .sort((a, b) => a.date.localeCompare(b.date))
    .slice(-days);
  const first = range.findIndex((day) => day.quota > 0 || day.queries > 0);
  return first === -1 ? [] : range.slice(first);
}

/** The share of the day's quota used, 0 to 1; null for days without a quota (before the account existed). */
export function quotaShare(day: Pick<UsageDay, "queries" | "quota">): number | null {
  return day.quota > 0 ? day.queries / day.quota : null;
}

export interface UsageSummary {
  total: number;
  /** The day with the most queries (the latest of equals), or null when there were none. */
  busiest: UsageDay | null;
}

export function summarizeUsage(days: readonly UsageDay[]): UsageSummary {
  let total = 0;
  let busiest: UsageDay | null = null;
  for (const day of days) {
    total += day.queries;
    if (day.queries > 0 && (!busiest || day.queries >= busiest.queries)) busiest = day;
  }
  return { total, busiest };
}

// A fixed locale, as everywhere in the dashboard; quota days are calendar dates, so they are read and shown in UTC.
const dayFormats = {
  short: new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" }),
  medium: new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" }),
  long: new Intl.DateTimeFormat("en-US", { weekday: "short", year: "numeric", month: "short", day: "numeric", timeZone: "UTC" }),
};

/** A quota day (`YYYY-MM-DD`) for people: short "Mar 9", medium "Mar 9, 2026", long "Mon, Mar 9, 2026". */
export function formatUsageDate(date: string, style: keyof typeof dayFormats): string {
  return dayFormats[style].format(Date.parse(`${date}T00:00:00Z`));
}
