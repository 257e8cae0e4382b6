import { z } from "zod";
import { MAX_URL_LENGTH } from "../../lib/urls/url-length.ts";

/** The ranges a URL's history page offers; the range and interval live in the page's URL. */
export const HISTORY_RANGES = [7, 30, 90, 365] as const;
export type HistoryRange = (typeof HISTORY_RANGES)[number];

export const historyRangeSchema = z.object({
  url: z.string().min(1).max(MAX_URL_LENGTH),
  range: z.coerce
    .number()
    .refine((n): n is HistoryRange => (HISTORY_RANGES as readonly number[]).includes(n), "range must be 7, 30, 90 or 365")
    .default(30),
  interval: z.enum(["hour", "day"]).default("day"),
});

const DAY = 86_400_000;
const isoDay = (at: number) => new Date(at).toISOString().slice(0, 10);

/** The UTC days of a range ending today (both included). */
export function rangeDays(range: number, now: number): { from: string; to: string } {
  const today = Math.floor(now / DAY) * DAY;
  return { from: isoDay(today - (range - 1) * DAY), to: isoDay(today) };
}
