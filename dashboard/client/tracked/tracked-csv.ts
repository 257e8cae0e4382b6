import Papa from "papaparse";
import type { NetworkId } from "../../../lib/counts/all-networks.ts";
import { numberFieldsOf } from "../../../lib/v2/schemas.ts";
import { fieldCount } from "./networks.ts";
import type { TrackedItem } from "./types.ts";

/**
 * Tracked URLs (the list's selected rows) as CSV for a spreadsheet: `url` as stored (ASCII, what the API takes
 * back), its dates and figures, then `{network}_{field}` for every number of each network shown. An empty cell
 * is "not reported", never a made-up 0; the byte-order mark makes Excel read UTF-8.
 */
export function trackedCsv(rows: readonly TrackedItem[], networks: readonly NetworkId[]): string {
  const columns = networks.flatMap((network) => numberFieldsOf(network).map((field) => ({ network, field })));
  const fields = ["url", "added_at", "last_refreshed_at", "total", "change_7d", "change_30d", ...columns.map(({ network, field }) => `${network}_${field}`)];
  const data = rows.map((row) => [
    row.url,
    row.added_at,
    row.last_refreshed_at,
    row.total,
    row.change_7d,
    row.change_30d,
    ...columns.map(({ network, field }) => fieldCount(row.networks, network, field)),
  ]);
  return `\uFEFF${Papa.unparse({ fields, data })}\r\n`;
}

/** `sharecount-tracked-urls-2026-01-30.csv`: dated (UTC), so exports do not overwrite each other. */
export const trackedCsvFilename = (now: number) => `sharecount-tracked-urls-${new Date(now).toISOString().slice(0, 10)}.csv`;
