import Papa from "papaparse";
import { quotaShare, type UsageDay } from "./usage.ts";

/** The first four columns are those the export always had (queries: served); the refused ones follow. */
export const USAGE_CSV_FIELDS = ["date", "queries", "quota", "percent_used", "refused_quota", "refused_whitelist", "refused_invalid"] as const;

/**
 * The usage days as CSV for a spreadsheet: a header row, one row per day oldest first, ISO dates, plain
 * numbers; percent_used is empty for days without a quota (a spreadsheet reads an empty cell as no value).
 */
export function usageCsv(days: readonly UsageDay[]): string {
  const rows = days.map((day) => {
    const share = quotaShare(day);
    const percent = share === null ? "" : Number((share * 100).toFixed(4));
    return [day.date, day.served, day.quota, percent, day.refused.quota, day.refused.whitelist, day.refused.invalid];
  });
  return Papa.unparse({ fields: [...USAGE_CSV_FIELDS], data: rows });
}

/** `sharecount-usage-2026-01-01-to-2026-01-30.csv`: the range in the name, so exports do not overwrite each other. */
export function usageCsvFilename(days: readonly UsageDay[]): string {
  const first = days[0]?.date;
  const last = days.at(-1)?.date;
  return first && last ? `sharecount-usage-${first}-to-${last}.csv` : "sharecount-usage.csv";
}
