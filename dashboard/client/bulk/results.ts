import Papa from "papaparse";
import type { z } from "zod";
import type { NetworkId } from "../../../lib/counts/all-networks.ts";
import { numberFieldsOf, type bulkAnswerSchema } from "../../../lib/v2/schemas.ts";
import { fieldCount, headlineCount } from "../tracked/networks.ts";
import type { Networks } from "../tracked/types.ts";

/** One counted URL of a bulk job: the URL as submitted and its v2 network objects, as `GET /v2/bulk` answers them. */
export interface BulkResultRow {
  url: string;
  networks: Networks;
}

/** The API's `data` (an empty array while nothing is counted yet) as rows, in the API's order. */
export function resultRows(data: z.infer<typeof bulkAnswerSchema>["data"]): BulkResultRow[] {
  return Array.isArray(data) ? [] : Object.entries(data).map(([url, networks]) => ({ url, networks }));
}

/** The URL, or a network's headline number. */
export type ResultColumnKey = "url" | NetworkId;

export interface ResultSort {
  column: ResultColumnKey;
  direction: "ascending" | "descending";
}

/** Sorted copy; URLs compare as text, headline numbers as numbers, and "not reported" stays last either way. */
export function sortResultRows(rows: readonly BulkResultRow[], sort: ResultSort): BulkResultRow[] {
  const sign = sort.direction === "ascending" ? 1 : -1;
  const column = sort.column;
  if (column === "url") return [...rows].sort((a, b) => sign * a.url.localeCompare(b.url));
  return [...rows].sort((a, b) => {
    const x = headlineCount(a.networks, column);
    const y = headlineCount(b.networks, column);
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    return sign * (x - y);
  });
}

/**
 * One row per URL, a header row of column names: `url`, then `{network}_{field}` for every number of every
 * network of the job. A number not reported is an empty cell, so a spreadsheet leaves it blank instead of
 * summing a made-up 0. The byte-order mark makes Excel read UTF-8.
 */
export function resultsCsv(rows: readonly BulkResultRow[], networks: readonly NetworkId[]): string {
  const columns = networks.flatMap((network) => numberFieldsOf(network).map((field) => ({ network, field })));
  const fields = ["url", ...columns.map(({ network, field }) => `${network}_${field}`)];
  const data = rows.map((row) => [row.url, ...columns.map(({ network, field }) => fieldCount(row.networks, network, field))]);
  return `\uFEFF${Papa.unparse({ fields, data })}\r\n`;
}

/** The API's own `data` object (URL → v2 network objects), as `GET /v2/bulk` answers it. */
export function resultsJson(rows: readonly BulkResultRow[]): string {
  return `${JSON.stringify(Object.fromEntries(rows.map((row) => [row.url, row.networks])), null, 2)}\n`;
}
