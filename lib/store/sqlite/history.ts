import type Database from "better-sqlite3";
import type { HistoryPoint, HistoryStore, Observation } from "../history.ts";
import { columnsOf, EARLIER_IN_ITS_DAY, HOUR_MS, hourOf, mergeAssignments, OBSERVATION_COLUMNS, pointOf, type ObservationRow, POINT_TIMES } from "../observation-rows.ts";

const COLUMNS = OBSERVATION_COLUMNS.join(", ");

export function sqliteHistory(db: Database.Database): HistoryStore {
  const statements = {
    addUrl: db.prepare<[string]>("INSERT INTO counted_url (url) VALUES (?) ON CONFLICT (url) DO NOTHING"),
    idOf: db.prepare<[string], number>("SELECT id FROM counted_url WHERE url = ?").pluck(),
    record: db.prepare<unknown[]>(`
      INSERT INTO observation (url_id, hour, observed_at, first_observed_at, ${COLUMNS}) VALUES (?, ?, ?, ?, ${OBSERVATION_COLUMNS.map(() => "?").join(", ")})
      ON CONFLICT (url_id, hour) DO UPDATE SET
  ${mergeAssignments("observation", "excluded")}`),
    points: db.prepare<[number, number, number], ObservationRow>(
      `SELECT ${POINT_TIMES}, ${COLUMNS} FROM observation WHERE url_id = ? AND hour >= ? AND hour <= ? ORDER BY hour`,
    ),
    atOrBefore: db.prepare<[number, number], ObservationRow>(
      `SELECT ${POINT_TIMES}, ${COLUMNS} FROM observation WHERE url_id = ? AND hour <= ? ORDER BY hour DESC LIMIT 1`,
    ),
    toCompact: db.prepare<[number, number], { id: number; compacted_to_hour: number }>(
      "SELECT id, compacted_to_hour FROM counted_url WHERE compacted_to_hour < ? LIMIT ?",
    ),
    compact: db.prepare<[number, number, number]>(
      `DELETE FROM observation WHERE url_id = ? AND hour >= ? AND hour < ? AND ${EARLIER_IN_ITS_DAY}`,
    ),
    compacted: db.prepare<[number, number]>("UPDATE counted_url SET compacted_to_hour = ? WHERE id = ?"),
    noteQueried: db.prepare<[string, number, number]>(
      "INSERT INTO queried_url (account_id, url_id, first_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
    ),
    firstQueried: db.prepare<[string, number], number>("SELECT first_at FROM queried_url WHERE account_id = ? AND url_id = ?").pluck(),
  };

  const recordAll = db.transaction((observations: readonly Observation[]) => {
    for (const { urlId, at, values } of observations) statements.record.run(urlId, hourOf(at), at, at, ...columnsOf(values));
  });
  const idsOf = db.transaction((urls: readonly string[]) => {
    const ids = new Map<string, number>();
    for (const url of urls) {
      statements.addUrl.run(url);
      ids.set(url, statements.idOf.get(url)!);
    }
    return ids;
  });

  /** A point's hour is within [from, to) when its time is: the hour range is widened, the times filtered. */
  const pointsIn = (urlId: number, from: number, to: number): HistoryPoint[] =>
    statements.points
      .all(urlId, hourOf(from), hourOf(to))
      .map(pointOf)
      .filter((p) => p.at >= from && p.at < to);

  const atOrBefore = (urlId: number, at: number): HistoryPoint | null => {
    const row = statements.atOrBefore.get(urlId, hourOf(at));
    const point = row ? pointOf(row) : null;
    // The hour of `at` may hold a point taken after it: then the answer is in an earlier hour.
    return point && point.at > at ? atOrBefore(urlId, hourOf(at) * HOUR_MS - 1) : point;
  };

  const compact = db.transaction((beforeHour: number, maxUrls: number) => {
    const urls = statements.toCompact.all(beforeHour, maxUrls);
    for (const { id, compacted_to_hour } of urls) {
      statements.compact.run(id, compacted_to_hour, beforeHour);
      statements.compacted.run(beforeHour, id);
    }
    return urls.length;
  });

  const noteQueried = db.transaction((accountId: string, urlIds: readonly number[], at: number) => {
    for (const urlId of urlIds) statements.noteQueried.run(accountId, urlId, at);
  });

  return {
    async idsOf(urls) {
      return idsOf(urls);
    },
    async idOf(url) {
      return statements.idOf.get(url) ?? null;
    },
    async knownIds(urls) {
      const ids = new Map<string, number>();
      for (const url of urls) {
        const id = statements.idOf.get(url);
        if (id !== undefined) ids.set(url, id);
      }
      return ids;
    },
    async record(observations) {
      recordAll(observations);
    },
    async points(urlId, from, to) {
      return pointsIn(urlId, from, to);
    },
    async pointsOfMany(urlIds, from, to) {
      return new Map(urlIds.map((id) => [id, pointsIn(id, from, to)]));
    },
    async pointAtOrBefore(urlId, at) {
      return atOrBefore(urlId, at);
    },
    async compact(beforeHour, maxUrls) {
      return compact(beforeHour, maxUrls);
    },
    async noteQueried(accountId, urlIds, at) {
      noteQueried(accountId, urlIds, at);
    },
    async accessSince(accountId, urlIds) {
      const since = new Map<number, number>();
      for (const urlId of urlIds) {
        const at = statements.firstQueried.get(accountId, urlId);
        if (at !== undefined) since.set(urlId, Number(at));
      }
      return since;
    },
  };
}
