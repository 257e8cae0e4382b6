import { z } from "zod";
import { addDays } from "../../lib/quota/day.ts";
import { DEFAULT_USAGE_RANGE_DAYS, MAX_USAGE_RANGE_DAYS, refusedSchema, type usageAnswerV2Schema } from "../../lib/v2/usage-schemas.ts";

/** Why a count query was refused, as the API names the reasons, in the order the page shows them. */
export const REFUSAL_REASONS = refusedSchema.keyof().options;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];
export type Refusals = z.infer<typeof refusedSchema>;

/** How the page names each reason. */
export const REFUSAL_LABELS: Record<RefusalReason, string> = { quota: "Over quota", whitelist: "Not whitelisted", invalid: "Invalid" };

/** One quota day of the usage report: queries served, refused by reason, and the quota allocated that day. */
export interface UsageDay {
  /** The quota day, `YYYY-MM-DD`. */
  date: string;
  served: number;
  refused: Refusals;
  quota: number;
}

/** The presets the Usage page offers besides a custom range. */
export const USAGE_PRESETS = [7, 30, 90] as const;
export type UsagePreset = (typeof USAGE_PRESETS)[number];
export const DEFAULT_USAGE_PRESET: UsagePreset = DEFAULT_USAGE_RANGE_DAYS;

/** The range a page shows: the last N days (`?days=`), or the days from one date to another (`?from=&to=`). */
export type UsageRange = { days: UsagePreset } | { from: string; to: string };

const dayCount = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

/** Why a custom range cannot be shown, or null when it can: what the API accepts. */
export function customRangeProblem(from: string, to: string): { field: "from" | "to"; message: string } | null {
  if (!z.iso.date().safeParse(from).success) return { field: "from", message: "Enter a start date." };
  if (!z.iso.date().safeParse(to).success) return { field: "to", message: "Enter an end date." };
  if (from > to) return { field: "to", message: "The end date must be on or after the start date." };
  if (dayCount(from, to) > MAX_USAGE_RANGE_DAYS) return { field: "from", message: `A range spans at most ${MAX_USAGE_RANGE_DAYS} days.` };
  return null;
}

const presetSchema = z.coerce
  .number({ error: `days must be one of ${USAGE_PRESETS.join(", ")}` })
  .pipe(z.literal(USAGE_PRESETS, { error: `days must be one of ${USAGE_PRESETS.join(", ")}` }));

/** The dashboard usage route's query: `from` and `to` together, or a preset `days` (30 when none is given). */
export const usageRouteSchema = z
  .object({ days: presetSchema.optional(), from: z.string().optional(), to: z.string().optional() })
  .superRefine((query, ctx) => {
    if (query.from === undefined && query.to === undefined) return;
    const problem = customRangeProblem(query.from ?? "", query.to ?? "");
    if (problem) ctx.addIssue({ code: "custom", path: [problem.field], message: problem.message });
  })
  .transform((query): UsageRange => (query.from && query.to ? { from: query.from, to: query.to } : { days: query.days ?? DEFAULT_USAGE_PRESET }));

/** The range in a page's search params: a hand-edited or stale link falls back to the default rather than failing. */
export function usageRangeFrom(params: { get(name: string): string | null }): UsageRange {
  const from = params.get("from");
  const to = params.get("to");
  if (from !== null && to !== null && customRangeProblem(from, to) === null) return { from, to };
  const days = USAGE_PRESETS.find((preset) => String(preset) === params.get("days"));
  return { days: days ?? DEFAULT_USAGE_PRESET };
}

/** The search params of a range: a preset's `days`, or a custom range's `from` and `to`. */
export function usageRangeParams(range: UsageRange): Record<string, string> {
  return "days" in range ? { days: String(range.days) } : { from: range.from, to: range.to };
}

/** The days a range covers, ending `today` (the quota day) for a preset. */
export function rangeDays(range: UsageRange, today: string): { from: string; to: string } {
  return "days" in range ? { from: addDays(today, -(range.days - 1)), to: today } : range;
}

/** What the dashboard's usage route answers. */
export interface UsageAnswer {
  /** The days asked for (a preset's end on today, in the service's quota time zone). */
  from: string;
  to: string;
  /** Oldest first, from the account's first day. */
  usage: UsageDay[];
}

/**
 * The API's days as the page shows them, oldest first (the API's order is not relied on), from the account's
 * first day: the API reports the days before the account existed with quota 0, and a chart of them would
 * draw a history that never was.
 */
export function fromAccountStart(days: z.infer<typeof usageAnswerV2Schema>["days"]): UsageDay[] {
  const range = days
    .map(({ day, served, refused, quota }) => ({ date: day, served, refused: { ...refused }, quota }))
    .sort((a, b) => a.date.localeCompare(b.date));
  const first = range.findIndex((day) => day.quota > 0 || requests(day) > 0);
  return first === -1 ? [] : range.slice(first);
}

export const refusedSum = (refused: Refusals) => refused.quota + refused.whitelist + refused.invalid;
/** Every request of the day: served and refused. */
export const requests = (day: Pick<UsageDay, "served" | "refused">) => day.served + refusedSum(day.refused);

/** The share of the day's quota used, 0 to 1; null for days without a quota (before the account existed). */
export function quotaShare(day: Pick<UsageDay, "served" | "quota">): number | null {
  return day.quota > 0 ? day.served / day.quota : null;
}

export interface UsageSummary {
  served: number;
  refused: Refusals;
  /** The day with the most requests, served and refused (the latest of equals), or null when there were none. */
  busiest: UsageDay | null;
}

export function summarizeUsage(days: readonly UsageDay[]): UsageSummary {
  const summary: UsageSummary = { served: 0, refused: { quota: 0, whitelist: 0, invalid: 0 }, busiest: null };
  for (const day of days) {
    summary.served += day.served;
    for (const reason of REFUSAL_REASONS) summary.refused[reason] += day.refused[reason];
    if (requests(day) > 0 && (!summary.busiest || requests(day) >= requests(summary.busiest))) summary.busiest = day;
  }
  return summary;
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

/** The range for people: "last 30 days", or "Mar 1, 2026 – Mar 31, 2026". */
export function describeRange(range: UsageRange): string {
  return "days" in range ? `last ${range.days} days` : `${formatUsageDate(range.from, "medium")} – ${formatUsageDate(range.to, "medium")}`;
}
