import { addDays, quotaDay } from "../quota/day.ts";
import type { KeyHour } from "../store/requests.ts";

/** Requests per key and day (the keys page's chart): `counts[i]` is the count of `days[i]`. */
export interface KeyUsage {
  days: string[];
  series: { keyId: string | null; name: string; counts: number[]; errors: number }[];
}

/**
 * Hourly counts folded into the quota time zone's days, one series per key that made requests (the dashboard's
 * own calls as their own series), busiest first. Pure: the clock and the names come from the caller.
 */
export function foldKeyUsage(hours: readonly KeyHour[], names: ReadonlyMap<string, string>, timeZone: string, now: number, days: number): KeyUsage {
  const today = quotaDay(now, timeZone);
  const dayList = Array.from({ length: days }, (_, i) => addDays(today, i - days + 1));
  const index = new Map(dayList.map((day, i) => [day, i]));
  const series = new Map<string, { keyId: string | null; name: string; counts: number[]; errors: number }>();
  for (const row of hours) {
    const at = index.get(quotaDay(row.hour, timeZone));
    if (at === undefined) continue;
    const id = row.keyId ?? "";
    let entry = series.get(id);
    if (!entry) {
      entry = { keyId: row.keyId, name: row.keyId === null ? "Dashboard" : (names.get(row.keyId) ?? "Deleted key"), counts: new Array<number>(days).fill(0), errors: 0 };
      series.set(id, entry);
    }
    entry.counts[at]! += row.requests;
    entry.errors += row.errors;
  }
  const total = (s: { counts: number[] }) => s.counts.reduce((a, b) => a + b, 0);
  return { days: dayList, series: [...series.values()].sort((a, b) => total(b) - total(a)) };
}
