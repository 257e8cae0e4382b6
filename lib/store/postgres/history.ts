import type { HistoryPoint, HistoryStore, Observation } from "../history.ts";
import { columnsOf, EARLIER_IN_ITS_DAY, hourOf, mergeAssignments, OBSERVATION_COLUMNS, POINT_TIMES, pointOf, type ObservationRow } from "../observation-rows.ts";
import type { Sql } from "./pool.ts";

const COLUMNS = OBSERVATION_COLUMNS.join(", ");

const SQL = {
  /**
   * Adds the URLs not yet counted and answers every id in one statement. A URL another transaction added and
   * committed while this one waited on it is in neither half (the statement's snapshot predates it): idsOf
   * reads those again.
   */
  addUrls: `
    WITH added AS (INSERT INTO counted_url (url) SELECT u FROM unnest($1::text[]) AS u ORDER BY u ON CONFLICT (url) DO NOTHING RETURNING id, url)
    SELECT id, url FROM added UNION ALL SELECT id, url FROM counted_url WHERE url = ANY($1::text[])`,
  ids: "SELECT id, url FROM counted_url WHERE url = ANY($1::text[])",
  idOf: "SELECT id FROM counted_url WHERE url = $1",
  /** `rows` observations in one statement (a URL's hour at most once: a statement cannot update a row twice). */
  record: (rows: number) => {
    const width = 3 + OBSERVATION_COLUMNS.length;
    const row = (r: number) => `($${r * width + 1}, $${r * width + 2}, $${r * width + 3}, $${r * width + 3}, ${OBSERVATION_COLUMNS.map((_, i) => `$${r * width + 4 + i}`).join(", ")})`;
    return `
    INSERT INTO observation AS o (url_id, hour, observed_at, first_observed_at, ${COLUMNS})
    VALUES ${Array.from({ length: rows }, (_, r) => row(r)).join(", ")}
    ON CONFLICT (url_id, hour) DO UPDATE SET
    ${mergeAssignments("o", "excluded")}`;
  },
  points: `SELECT url_id, ${POINT_TIMES}, ${COLUMNS} FROM observation WHERE url_id = ANY($1::int[]) AND hour >= $2 AND hour <= $3 ORDER BY url_id, hour`,
  atOrBefore: `SELECT ${POINT_TIMES}, ${COLUMNS} FROM observation WHERE url_id = $1 AND hour <= $2 ORDER BY hour DESC LIMIT 2`,
  toCompact: "SELECT id, compacted_to_hour FROM counted_url WHERE compacted_to_hour < $1 ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED",
  /**
   * A batch of URLs, each from where its last compaction ended, in two statements (most new URLs have nothing
   * to compact: one statement pair per URL was the bulk worker's busiest query). The rows are locked in
   * (url_id, hour) order, as observation writers lock theirs.
   */
  compact: `
    DELETE FROM observation o USING (
      SELECT observation.url_id, observation.hour FROM observation
      JOIN unnest($1::int[], $2::int[]) AS c(id, from_hour) ON observation.url_id = c.id
      WHERE observation.hour >= c.from_hour AND observation.hour < $3 AND ${EARLIER_IN_ITS_DAY}
      ORDER BY observation.url_id, observation.hour FOR UPDATE OF observation) d
    WHERE o.url_id = d.url_id AND o.hour = d.hour`,
  compacted: "UPDATE counted_url SET compacted_to_hour = $1 WHERE id = ANY($2::int[])",
  noteQueried: `
    INSERT INTO queried_url (account_id, url_id, first_at) SELECT $1, u, $3 FROM unnest($2::int[]) AS u ORDER BY u
    ON CONFLICT DO NOTHING`,
  accessSince: "SELECT url_id, first_at FROM queried_url WHERE account_id = $1 AND url_id = ANY($2::int[])",
};

/** Observations per statement: within PostgreSQL's 65,535 parameters, and a handful of prepared sizes per connection. */
const MAX_ROWS = 200;

export function postgresHistory(sql: Sql): HistoryStore {
  const knownIds = async (urls: readonly string[]) => {
    const { rows } = await sql.query<{ id: number; url: string }>("countedUrlIds", SQL.ids, [[...new Set(urls)]]);
    return new Map(rows.map((row) => [row.url, row.id]));
  };
  const pointsOfMany = async (urlIds: readonly number[], from: number, to: number) => {
    const { rows } = await sql.query<ObservationRow & { url_id: number }>("historyPoints", SQL.points, [urlIds, hourOf(from), hourOf(to)]);
    const points = new Map<number, HistoryPoint[]>(urlIds.map((id) => [id, []]));
    for (const row of rows) {
      const point = pointOf(row);
      if (point.at >= from && point.at < to) points.get(row.url_id)!.push(point);
    }
    return points;
  };
  return {
    async idsOf(urls) {
      const sorted = [...new Set(urls)].sort();
      const { rows } = await sql.query<{ id: number; url: string }>("addCountedUrls", SQL.addUrls, [sorted]);
      const ids = new Map(rows.map((row) => [row.url, row.id]));
      const raced = sorted.filter((url) => !ids.has(url));
      if (raced.length > 0) for (const [url, id] of await knownIds(raced)) ids.set(url, id);
      return ids;
    },
    knownIds,
    async idOf(url) {
      return (await sql.query<{ id: number }>("countedUrlId", SQL.idOf, [url])).rows[0]?.id ?? null;
    },
    async record(observations) {
      // A URL's hour seen again in the batch goes to the next statement, so they apply in order; so do rows past MAX_ROWS.
      for (let rest = observations; rest.length > 0; ) {
        const seen = new Set<string>();
        const now: Observation[] = [];
        const later: Observation[] = [];
        for (const o of rest) {
          const key = `${o.urlId} ${hourOf(o.at)}`;
          if (seen.has(key) || now.length === MAX_ROWS) later.push(o);
          else {
            seen.add(key);
            now.push(o);
          }
        }
        // Rows lock in statement order: sorted, two processes' batches over the same URLs cannot deadlock.
        now.sort((x, y) => x.urlId - y.urlId || x.at - y.at);
        // Named by size, so each size is prepared once per connection.
        await sql.query(`recordObservations${now.length}`, SQL.record(now.length), now.flatMap(({ urlId, at, values }) => [urlId, hourOf(at), at, ...columnsOf(values)]));
        rest = later;
      }
    },
    async points(urlId, from, to) {
      return (await pointsOfMany([urlId], from, to)).get(urlId)!;
    },
    pointsOfMany,
    async pointAtOrBefore(urlId, at) {
      // The hour of `at` may hold a point taken after it: then the answer is the point before it.
      const { rows } = await sql.query<ObservationRow>("historyAtOrBefore", SQL.atOrBefore, [urlId, hourOf(at)]);
      return rows.map(pointOf).find((point) => point.at <= at) ?? null;
    },
    async compact(beforeHour, maxUrls) {
      return sql.transaction(async (client) => {
        const { rows } = await client.query<{ id: number; compacted_to_hour: number }>({ name: "urlsToCompact", text: SQL.toCompact, values: [beforeHour, maxUrls] });
        if (rows.length === 0) return 0;
        const ids = rows.map((row) => row.id);
        await client.query({ name: "compactObservations", text: SQL.compact, values: [ids, rows.map((row) => row.compacted_to_hour), beforeHour] });
        await client.query({ name: "urlsCompacted", text: SQL.compacted, values: [beforeHour, ids] });
        return rows.length;
      });
    },
    async noteQueried(accountId, urlIds, at) {
      await sql.query("noteQueried", SQL.noteQueried, [accountId, [...urlIds], at]);
    },
    async accessSince(accountId, urlIds) {
      const { rows } = await sql.query<{ url_id: number; first_at: number }>("accessSince", SQL.accessSince, [accountId, [...urlIds]]);
      return new Map(rows.map((row) => [row.url_id, Number(row.first_at)]));
    },
  };
}
