import { OBSERVED_NETWORKS, observedValuesSchema, type ObservedNetwork, type ObservedValue, type ObservedValues } from "../history/observed.ts";
import type { HistoryPoint } from "./history.ts";

/** One reading of observation rows for both stores: which column holds which network's number. */

/** Each network's columns: one for a network whose value is a number, else one per field of its value. */
const NETWORK_COLUMNS = {
  Facebook: {
    total_count: "facebook_total",
    comment_count: "facebook_comment",
    reaction_count: "facebook_reaction",
    share_count: "facebook_share",
    comment_plugin_count: "facebook_comment_plugin",
  },
  Pinterest: "pinterest",
  reddit: { score: "reddit_score", comments: "reddit_comments", posts: "reddit_posts" },
  hackernews: { points: "hackernews_points", comments: "hackernews_comments", stories: "hackernews_stories" },
  bluesky: { likes: "bluesky_likes", reposts: "bluesky_reposts", replies: "bluesky_replies", quotes: "bluesky_quotes", posts: "bluesky_posts" },
  vk: { count: "vk_count" },
  ok: { count: "ok_count" },
  tumblr: { notes: "tumblr_notes" },
} as const satisfies {
  [N in ObservedNetwork]: ObservedValue<N> extends number ? string : { readonly [F in keyof ObservedValue<N>]-?: string };
};

type Column = { [N in ObservedNetwork]: (typeof NETWORK_COLUMNS)[N] extends string ? (typeof NETWORK_COLUMNS)[N] : (typeof NETWORK_COLUMNS)[N][keyof (typeof NETWORK_COLUMNS)[N]] }[ObservedNetwork];

/** A network's columns and the field of its value each holds (null: the value is that one number). */
const GROUPS = OBSERVED_NETWORKS.map((network) => {
  const columns: string | Record<string, string> = NETWORK_COLUMNS[network];
  const fields = typeof columns === "string" ? [{ field: null, column: columns }] : Object.entries(columns).map(([field, column]) => ({ field, column }));
  return { network, fields: fields as { field: string | null; column: Column }[] };
});

export const OBSERVATION_COLUMNS: readonly Column[] = GROUPS.flatMap((group) => group.fields.map((f) => f.column));

/** A network's columns, in OBSERVATION_COLUMNS order. */
export const columnsOfNetwork = (network: ObservedNetwork): readonly Column[] =>
  GROUPS.find((group) => group.network === network)!.fields.map((f) => f.column);

export type ObservationRow = { observed_at: number; first_observed_at: number | null } & Record<Column, number | null>;

/** The columns every reading of points selects before the networks' (OBSERVATION_COLUMNS). */
export const POINT_TIMES = "observed_at, first_observed_at";

export { HOUR_MS, hourOf } from "../history/observed.ts";

/** The row's values in OBSERVATION_COLUMNS order (null: the network is not in this observation). */
export function columnsOf(values: ObservedValues): (number | null)[] {
  return GROUPS.flatMap(({ network, fields }) => {
    const value: number | Readonly<Record<string, number>> | undefined = values[network];
    return fields.map(({ field }) => (value === undefined ? null : typeof value === "number" ? value : value[field!]!));
  });
}

/** A network is in a row when its first column is not null (a network's columns are written all or none). */
export function pointOf(row: ObservationRow): HistoryPoint {
  const values: Record<string, unknown> = {};
  for (const { network, fields } of GROUPS) {
    if (row[fields[0]!.column] === null) continue;
    values[network] = fields[0]!.field === null ? row[fields[0]!.column] : Object.fromEntries(fields.map(({ field, column }) => [field, row[column]]));
  }
  const at = Number(row.observed_at);
  const first = row.first_observed_at === null ? at : Number(row.first_observed_at);
  return { at, values: observedValuesSchema.parse(values), ...(first < at ? { firstAt: first } : {}) };
}

/**
 * The upsert's SET list: a newer observation in the same hour replaces the networks it holds; an older
 * one (arriving late) only fills in what the point lacks. `table` is the name the statement gives the row.
 */
export function mergeAssignments(table: string, excluded: string): string {
  const newer = `${excluded}.observed_at >= ${table}.observed_at`;
  const networks = GROUPS.flatMap(({ fields }) => {
    const holds = (side: string) => `${side}.${fields[0]!.column} IS NOT NULL`;
    const taken = `${holds(excluded)} AND (${newer} OR NOT ${holds(table)})`;
    return fields.map(({ column }) => `${column} = CASE WHEN ${taken} THEN ${excluded}.${column} ELSE ${table}.${column} END`);
  });
  // A row written before first_observed_at existed has NULL there: its first observation is its only one.
  const first = `COALESCE(${table}.first_observed_at, ${table}.observed_at)`;
  return [
    `observed_at = CASE WHEN ${newer} THEN ${excluded}.observed_at ELSE ${table}.observed_at END`,
    `first_observed_at = CASE WHEN ${excluded}.observed_at < ${first} THEN ${excluded}.observed_at ELSE ${first} END`,
    ...networks,
  ].join(",\n  ");
}

/** Leaves the last point of each UTC day (24 epoch hours) in the hour range: the statement's WHERE. */
export const EARLIER_IN_ITS_DAY = `EXISTS (
  SELECT 1 FROM observation later
  WHERE later.url_id = observation.url_id AND later.hour > observation.hour AND later.hour < (observation.hour / 24 + 1) * 24)`;
