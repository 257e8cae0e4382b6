import { z } from "zod";
import { observedValuesSchema } from "../history/observed.ts";
import { OBSERVATION_COLUMNS, pointOf, POINT_TIMES, type ObservationRow } from "./observation-rows.ts";
import type { TrackedCursor, TrackedPageQuery, TrackedPoint, TrackedSummary, TrackedUrl } from "./tracked.ts";

/** One reading of tracked-URL rows, and one text of the list's queries, for both stores. */

export interface TrackedRow {
  url_id: number;
  url: string;
  added_at: number;
  aliases: string;
  last_refreshed_at: number | null;
  next_refresh_at: number | null;
  latest: string | null;
  total: number | null;
  change_7d: number | null;
  change_30d: number | null;
}

const aliasList = z.array(z.string());
const num = (value: number | null) => (value === null ? null : Number(value));

export function toTracked(row: TrackedRow): TrackedUrl {
  return {
    urlId: row.url_id,
    url: row.url,
    addedAt: Number(row.added_at),
    aliases: aliasList.parse(JSON.parse(row.aliases)),
    lastRefreshedAt: num(row.last_refreshed_at),
    nextRefreshAt: num(row.next_refresh_at),
    latest: row.latest === null ? null : observedValuesSchema.parse(JSON.parse(row.latest)),
    total: num(row.total),
    change7d: num(row.change_7d),
    change30d: num(row.change_30d),
  };
}

/** A summary's columns in the order the stores' UPDATE takes them: latest, total, change_7d, change_30d. */
export const summaryColumns = (summary: TrackedSummary) =>
  [JSON.stringify(summary.latest), summary.total, summary.change7d, summary.change30d] as const;

export const TRACKED_SELECT = `
  SELECT t.url_id, c.url, t.added_at, t.aliases, t.last_refreshed_at, s.next_refresh_at, t.latest, t.total, t.change_7d, t.change_30d
  FROM tracked_url t JOIN counted_url c ON c.id = t.url_id LEFT JOIN refresh_schedule s ON s.url_id = t.url_id`;

/** The parameters of pointsAfterStatement: the account, the cursor and the limit. */
export type PointsAfterParam = "account" | "urlId" | "hour" | "limit";

/**
 * A page of the account's tracked URLs' points it may read (TrackedStore.pointsAfter); `param(name)` writes a
 * parameter, `least` is the database's two-argument minimum. The cursor's URL id also bounds the tracked_url
 * index scan that drives the join.
 */
export const pointsAfterStatement = (param: (name: PointsAfterParam) => string, least: "MIN" | "LEAST") => `
  SELECT t.url_id, c.url, o.hour, ${POINT_TIMES}, ${OBSERVATION_COLUMNS.join(", ")}
  FROM tracked_url t JOIN counted_url c ON c.id = t.url_id JOIN observation o ON o.url_id = t.url_id
  LEFT JOIN queried_url q ON q.account_id = t.account_id AND q.url_id = t.url_id
  WHERE t.account_id = ${param("account")} AND t.url_id >= ${param("urlId")} AND (t.url_id > ${param("urlId")} OR o.hour > ${param("hour")})
    AND COALESCE(o.first_observed_at, o.observed_at) >= ${least}(COALESCE(q.first_at, t.added_at), t.added_at)
  ORDER BY t.url_id, o.hour LIMIT ${param("limit")}`;

export type TrackedPointRow = ObservationRow & { url_id: number; url: string; hour: number };

export const toTrackedPoint = (row: TrackedPointRow): TrackedPoint => ({ urlId: row.url_id, url: row.url, hour: row.hour, point: pointOf(row) });

/**
 * The due URLs to lease next, at most `$max`, shared fairly: the accounts with due URLs take turns (each one's
 * first, then each one's second…), so one account's backlog delays only its own URLs; within an account, URLs
 * never refreshed first, then the most overdue. A URL several accounts track takes the best turn it has; one
 * no account tracks any more is its own turn-taker (it is claimed to be dropped). Within a turn the accounts
 * go in random order: by due time, the accounts with the oldest backlogs would take every place of every round
 * while more accounts than places wait (the red team saw 3 of 19 accounts starve for 45 minutes).
 */
export const FAIR_DUE = `
  WITH turns AS (
    SELECT s.url_id, s.next_refresh_at,
      ROW_NUMBER() OVER (
        PARTITION BY t.account_id
        ORDER BY CASE WHEN s.last_refreshed_at IS NULL THEN 0 ELSE 1 END, s.next_refresh_at, s.url_id) AS turn
    FROM refresh_schedule s LEFT JOIN tracked_url t ON t.url_id = s.url_id
    WHERE s.next_refresh_at <= $now AND (s.lease_until IS NULL OR s.lease_until <= $now))
  SELECT url_id, ROW_NUMBER() OVER (ORDER BY MIN(turn), random()) AS position
  FROM turns GROUP BY url_id ORDER BY position LIMIT $max`;

/** A URL is refreshed again for a change (a new tracker, new aliases) at most this long after its last refresh. */
export const REFRESH_GAP_MS = 10 * 60_000;

/**
 * Makes a scheduled URL due at `at` (an SQL expression), but no sooner than REFRESH_GAP_MS after its last
 * refresh, so adding and removing trackers or aliases cannot make it refreshed over and over: sooner than it
 * was due, and also when a refresh is under way (it may have read the trackers and aliases before the
 * change), which then leaves this due time in place rather than the cadence's. `prefix` names the existing
 * row where the statement needs it; `greatest` is the database's two-argument maximum.
 */
export const DUE_AGAIN = (at: string, greatest: "MAX" | "GREATEST", prefix = "") => {
  const soonest = `CASE WHEN ${prefix}last_refreshed_at IS NULL THEN ${at} ELSE ${greatest}(${at}, ${prefix}last_refreshed_at + ${REFRESH_GAP_MS}) END`;
  return `next_refresh_at = CASE WHEN ${prefix}lease_until IS NOT NULL AND ${prefix}lease_until > ${at} THEN ${soonest}
    WHEN ${prefix}next_refresh_at < ${soonest} THEN ${prefix}next_refresh_at ELSE ${soonest} END`;
};

const SORT_COLUMNS = { total: "total", change_7d: "change_7d", added: "added_at" } as const;

/** One statement of a page; its last value is the LIMIT. */
export interface PageStatement {
  text: string;
  values: unknown[];
}

/** Escapes LIKE's wildcards in searched text (the statement says ESCAPE '\'). */
const likePattern = (search: string) => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The statements that list one page, in order: rows with a sort value (keyset on the value and the URL's
 * id), then rows without one (by id). `param(i)` writes the i-th placeholder; `like` is the case-insensitive
 * LIKE of the database.
 */
export function pageStatements(
  accountId: string,
  query: TrackedPageQuery,
  param: (i: number) => string,
  like: "LIKE" | "ILIKE",
): PageStatement[] {
  const column = `t.${SORT_COLUMNS[query.sort]}`;
  const nullable = query.sort !== "added";
  const build = (nulls: boolean): PageStatement => {
    const values: unknown[] = [accountId];
    const where = [`t.account_id = ${param(1)}`];
    if (query.search) {
      values.push(likePattern(query.search));
      where.push(`c.url ${like} ${param(values.length)} ESCAPE '\\'`);
    }
    if (query.filter === "growing") where.push("t.change_7d > 0");
    if (query.filter === "uncounted") where.push("t.last_refreshed_at IS NULL");
    const after = query.after;
    let order: string;
    if (nulls) {
      where.push(`${column} IS NULL`);
      if (after && after.value === null) {
        values.push(after.urlId);
        where.push(`t.url_id > ${param(values.length)}`);
      }
      order = "t.url_id ASC";
    } else {
      if (nullable) where.push(`${column} IS NOT NULL`);
      if (after) {
        values.push(after.value, after.urlId);
        where.push(`(${column}, t.url_id) ${query.order === "desc" ? "<" : ">"} (${param(values.length - 1)}, ${param(values.length)})`);
      }
      const direction = query.order === "desc" ? "DESC" : "ASC";
      order = `${column} ${direction}, t.url_id ${direction}`;
    }
    values.push(query.limit + 1);
    return { text: `${TRACKED_SELECT} WHERE ${where.join(" AND ")} ORDER BY ${order} LIMIT ${param(values.length)}`, values };
  };
  if (query.after && query.after.value === null) return [build(true)];
  return nullable ? [build(false), build(true)] : [build(false)];
}

/**
 * Runs the page's statements until `limit` rows are found, each asking for one row more than it needs, so
 * a next page is known to exist without counting; says where the next page starts.
 */
export async function pageOf(
  query: TrackedPageQuery,
  statements: PageStatement[],
  run: (text: string, values: unknown[]) => Promise<TrackedRow[]>,
): Promise<{ rows: TrackedUrl[]; next: TrackedCursor | null }> {
  const rows: TrackedUrl[] = [];
  for (const statement of statements) {
    const wanted = query.limit - rows.length;
    const found = await run(statement.text, [...statement.values.slice(0, -1), wanted + 1]);
    rows.push(...found.slice(0, wanted).map(toTracked));
    if (found.length > wanted) {
      const last = rows.at(-1)!;
      return { rows, next: { value: sortValue(query, last), urlId: last.urlId } };
    }
  }
  return { rows, next: null };
}

function sortValue(query: TrackedPageQuery, row: TrackedUrl): number | null {
  return query.sort === "total" ? row.total : query.sort === "change_7d" ? row.change7d : row.addedAt;
}
