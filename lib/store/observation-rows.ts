import { observedValuesSchema, type ObservedValues } from "../history/observed.ts";
import type { HistoryPoint } from "./history.ts";

/** One reading of observation rows for both stores: which column holds which network's number. */

export const OBSERVATION_COLUMNS = [
  "facebook_total",
  "facebook_comment",
  "facebook_reaction",
  "facebook_share",
  "facebook_comment_plugin",
  "pinterest",
] as const;

type Column = (typeof OBSERVATION_COLUMNS)[number];

export type ObservationRow = { observed_at: number } & Record<Column, number | null>;

export { HOUR_MS, hourOf } from "../history/observed.ts";

/** The row's values in OBSERVATION_COLUMNS order (null: the network is not in this observation). */
export function columnsOf(values: ObservedValues): (number | null)[] {
  const f = values.Facebook;
  return [
    f?.total_count ?? null,
    f?.comment_count ?? null,
    f?.reaction_count ?? null,
    f?.share_count ?? null,
    f?.comment_plugin_count ?? null,
    values.Pinterest ?? null,
  ];
}

export function pointOf(row: ObservationRow): HistoryPoint {
  const values: Record<string, unknown> = {};
  if (row.facebook_total !== null) {
    values.Facebook = {
      total_count: row.facebook_total,
      comment_count: row.facebook_comment,
      reaction_count: row.facebook_reaction,
      share_count: row.facebook_share,
      comment_plugin_count: row.facebook_comment_plugin,
    };
  }
  if (row.pinterest !== null) values.Pinterest = row.pinterest;
  return { at: Number(row.observed_at), values: observedValuesSchema.parse(values) };
}

/**
 * The upsert's SET list: a newer observation in the same hour replaces the networks it holds; an older
 * one (arriving late) only fills in what the point lacks. `table` is the name the statement gives the row.
 */
export function mergeAssignments(table: string, excluded: string): string {
  const newer = `${excluded}.observed_at >= ${table}.observed_at`;
  const facebookFrom = (side: string) => `${side}.facebook_total IS NOT NULL`;
  const facebook = OBSERVATION_COLUMNS.filter((c) => c.startsWith("facebook_")).map(
    (c) =>
      `${c} = CASE WHEN ${facebookFrom(excluded)} AND (${newer} OR NOT ${facebookFrom(table)}) THEN ${excluded}.${c} ELSE ${table}.${c} END`,
  );
  const pinterest = `pinterest = CASE WHEN ${excluded}.pinterest IS NOT NULL AND (${newer} OR ${table}.pinterest IS NULL) THEN ${excluded}.pinterest ELSE ${table}.pinterest END`;
  return [`observed_at = CASE WHEN ${newer} THEN ${excluded}.observed_at ELSE ${table}.observed_at END`, ...facebook, pinterest].join(",\n  ");
}

/** Leaves the last point of each UTC day (24 epoch hours) in the hour range: the statement's WHERE. */
export const EARLIER_IN_ITS_DAY = `EXISTS (
  SELECT 1 FROM observation later
  WHERE later.url_id = observation.url_id AND later.hour > observation.hour AND later.hour < (observation.hour / 24 + 1) * 24)`;
