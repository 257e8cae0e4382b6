import type { HistoryPoint, HistoryStore } from "../history.ts";
import { columnsOf, EARLIER_IN_ITS_DAY, hourOf, mergeAssignments, OBSERVATION_COLUMNS, POINT_TIMES, pointOf, type ObservationRow } from "../observation-rows.ts";
import type { Sql } from "./pool.ts";

const COLUMNS = OBSERVATION_COLUMNS.join(", ");

const SQL = {
  addUrls: "INSERT INTO counted_url (url) SELECT u FROM unnest($1::text[]) AS u ORDER BY u ON CONFLICT (url) DO NOTHING",
  ids: "SELECT id, url FROM counted_url WHERE url = ANY($1::text[])",
  idOf: "SELECT id FROM counted_url WHERE url = $1",
  record: `
    INSERT INTO observation AS o (url_id, hour, observed_at, first_observed_at, ${COLUMNS})
    VALUES ($1, $2, $3, $3, ${OBSERVATION_COLUMNS.map((_, i) => `$${i + 4}`).join(", ")})
    ON CONFLICT (url_id, hour) DO UPDATE SET
    ${mergeAssignments("o", "excluded")}`,
  points: `SELECT url_id, ${POINT_TIMES}, ${COLUMNS} FROM observation WHERE url_id = ANY($1::int[]) AND hour >= $2 AND hour <= $3 ORDER BY url_id, hour`,
  atOrBefore: `SELECT ${POINT_TIMES}, ${COLUMNS} FROM observation WHERE url_id = $1 AND hour <= $2 ORDER BY hour DESC LIMIT 2`,
  toCompact: "SELECT id, compacted_to_hour FROM counted_url WHERE compacted_to_hour < $1 ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED",
  compact: `DELETE FROM observation WHERE url_id = $1 AND hour >= $2 AND hour < $3 AND ${EARLIER_IN_ITS_DAY}`,
  compacted: "UPDATE counted_url SET compacted_to_hour = $1 WHERE id = $2",
  noteQueried: `
    INSERT INTO queried_url (account_id, url_id, first_at) SELECT $1, u, $3 FROM unnest($2::int[]) AS u ORDER BY u
    ON CONFLICT DO NOTHING`,
  accessSince: "SELECT url_id, first_at FROM queried_url WHERE account_id = $1 AND url_id = ANY($2::int[])",
};

export function postgresHistory(sql: Sql): HistoryStore {
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
      await sql.query("addCountedUrls", SQL.addUrls, [sorted]);
      const { rows } = await sql.query<{ id: number; url: string }>("countedUrlIds", SQL.ids, [sorted]);
      return new Map(rows.map((row) => [row.url, row.id]));
    },
    async knownIds(urls) {
      const { rows } = await sql.query<{ id: number; url: string }>("countedUrlIds", SQL.ids, [[...new Set(urls)]]);
      return new Map(rows.map((row) => [row.url, row.id]));
    },
    async idOf(url) {
      return (await sql.query<{ id: number }>("countedUrlId", SQL.idOf, [url])).rows[0]?.id ?? null;
    },
    async record(urlId, at, values) {
      await sql.query("recordObservation", SQL.record, [urlId, hourOf(at), at, ...columnsOf(values)]);
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
        const { rows } = await client.query<{ id: number; compacted_to_hour: number }>(SQL.toCompact, [beforeHour, maxUrls]);
        for (const { id, compacted_to_hour } of rows) {
          await client.query(SQL.compact, [id, compacted_to_hour, beforeHour]);
          await client.query(SQL.compacted, [beforeHour, id]);
        }
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
