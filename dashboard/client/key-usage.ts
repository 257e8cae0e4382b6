import type { KeyUsage } from "../../lib/keys/key-usage.ts";

export type { KeyUsage };

/** The chart draws this many keys; the rest are summed as "Other keys". */
export const CHARTED_KEYS = 6;

/** One row per day, with a column per charted key (by index) and the rest summed, as the chart reads it. */
export function chartRows(usage: KeyUsage): { rows: Record<string, number | string>[]; names: string[] } {
  const shown = usage.series.slice(0, CHARTED_KEYS);
  const rest = usage.series.slice(CHARTED_KEYS);
  const names = [...shown.map((s) => s.name), ...(rest.length > 0 ? ["Other keys"] : [])];
  const rows = usage.days.map((day, i) => {
    const row: Record<string, number | string> = { day };
    shown.forEach((s, k) => (row[`k${k}`] = s.counts[i]!));
    if (rest.length > 0) row[`k${shown.length}`] = rest.reduce((sum, s) => sum + s.counts[i]!, 0);
    return row;
  });
  return { rows, names };
}
