import Papa from "papaparse";
import type { BulkRetrieval, CountObject } from "../api-schemas.ts";

/** One counted URL of a bulk job: the URL as submitted and the API's v1.0 count object for it. */
export interface BulkResultRow {
  url: string;
  counts: CountObject;
}

/** The API's `data` (an empty array while nothing is counted yet) as rows, in the API's order. */
export function resultRows(data: BulkRetrieval["data"]): BulkResultRow[] {
  return Array.isArray(data) ? [] : Object.entries(data).map(([url, counts]) => ({ url, counts }));
}

/** The numbers a results table and its CSV show; null is "not reported", never 0. */
export const RESULT_COLUMNS = [
  { key: "facebook_total", label: "Facebook total", value: (c: CountObject) => c.Facebook.total_count },
  { key: "facebook_comments", label: "Comments", value: (c: CountObject) => c.Facebook.comment_count },
  { key: "facebook_reactions", label: "Reactions", value: (c: CountObject) => c.Facebook.reaction_count },
  { key: "facebook_shares", label: "Shares", value: (c: CountObject) => c.Facebook.share_count },
  { key: "facebook_comment_plugin", label: "Comment plugin", value: (c: CountObject) => c.Facebook.comment_plugin_count },
  { key: "pinterest", label: "Pinterest", value: (c: CountObject) => c.Pinterest },
] as const;

export type ResultColumnKey = "url" | (typeof RESULT_COLUMNS)[number]["key"];

export interface ResultSort {
  column: ResultColumnKey;
  direction: "ascending" | "descending";
}

/** Sorted copy; URLs compare as text, counts as numbers, and "not reported" stays last either way. */
export function sortResultRows(rows: readonly BulkResultRow[], sort: ResultSort): BulkResultRow[] {
  const sign = sort.direction === "ascending" ? 1 : -1;
  if (sort.column === "url") return [...rows].sort((a, b) => sign * a.url.localeCompare(b.url));
  const value = RESULT_COLUMNS.find((column) => column.key === sort.column)!.value;
  return [...rows].sort((a, b) => {
    const x = value(a.counts);
    const y = value(b.counts);
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    return sign * (x - y);
  });
}

/**
 * One row per URL, a header row of column names. A network that did not report is an empty cell, so a
 * spreadsheet leaves it blank instead of summing a made-up 0. The byte-order mark makes Excel read UTF-8.
 */
export function resultsCsv(rows: readonly BulkResultRow[]): string {
  const fields = ["url", ...RESULT_COLUMNS.map((column) => column.key)];
  const data = rows.map(({ url, counts }) => [url, ...RESULT_COLUMNS.map((column) => column.value(counts))]);
  return `\uFEFF${Papa.unparse({ fields, data })}\r\n`;
}

/** The API's own `data` object (URL → v1.0 count object), as `GET /v1.0/bulk` answers it. */
export function resultsJson(rows: readonly BulkResultRow[]): string {
  return `${JSON.stringify(Object.fromEntries(rows.map((row) => [row.url, row.counts])), null, 2)}\n`;
}
