import { networkListOf } from "../accounts.ts";
import { z } from "zod";
import type { DueRefresh, Tracker, TrackedStore } from "../tracked.ts";
import { DUE_AGAIN, FAIR_DUE, pageOf, pageStatements, pointsAfterStatement, summaryColumns, TRACKED_SELECT, toTracked, toTrackedPoint, type TrackedPointRow, type TrackedRow } from "../tracked-rows.ts";
import type { Sql } from "./pool.ts";

const aliasList = z.array(z.string());

/**
 * Leases the fair share of due URLs (FAIR_DUE). Rows are locked in url_id order and a row another transaction
 * holds is skipped: two workers' claims, or a claim and an addition, never wait on each other in crossed order
 * (a deadlock). A row leased meanwhile fails the lease test once locked, so each URL is leased once.
 */
const CLAIM = `
  WITH due AS (${FAIR_DUE.replaceAll("$now", "$1").replace("$max", "$2")}),
  free AS (
    SELECT s.url_id FROM refresh_schedule s JOIN due ON due.url_id = s.url_id
    WHERE s.lease_until IS NULL OR s.lease_until <= $1 ORDER BY s.url_id FOR UPDATE OF s SKIP LOCKED)
  UPDATE refresh_schedule s SET lease_until = $3, lease_token = $4
  FROM due, free, counted_url c WHERE s.url_id = free.url_id AND due.url_id = free.url_id AND c.id = s.url_id
  RETURNING s.url_id, c.url, s.first_tracked_at, s.next_refresh_at, due.position`;

const SQL = {
  // Concurrent additions for one account wait for each other: the limit holds under concurrency.
  lock: "SELECT pg_advisory_xact_lock(hashtextextended('tracked:' || $1, 0))",
  count: "SELECT COUNT(*)::int AS n FROM tracked_url WHERE account_id = $1",
  tracked: "SELECT url_id FROM tracked_url WHERE account_id = $1 AND url_id = ANY($2::int[])",
  insert: `INSERT INTO tracked_url (account_id, url_id, added_at) SELECT $1, u, $3 FROM unnest($2::int[]) AS u ORDER BY u`,
  // A URL someone else tracks already is refreshed again now, so its new tracker gets counts within a minute.
  schedule: `
    INSERT INTO refresh_schedule AS s (url_id, first_tracked_at, next_refresh_at) SELECT u, $2, $2 FROM unnest($1::int[]) AS u ORDER BY u
    ON CONFLICT (url_id) DO UPDATE SET ${DUE_AGAIN("excluded.next_refresh_at", "GREATEST", "s.")}`,
  remove: "DELETE FROM tracked_url WHERE account_id = $1 AND url_id = $2",
  get: `${TRACKED_SELECT} WHERE t.account_id = $1 AND t.url_id = $2`,
  pointsAfter: pointsAfterStatement((name) => ({ account: "$1", urlId: "$2", hour: "$3", limit: "$4" })[name], "LEAST"),
  // completeRefresh locks the schedule row before the tracked rows; changing aliases takes them in that order too.
  lockSchedule: "SELECT 1 FROM refresh_schedule WHERE url_id = $1 FOR UPDATE",
  setAliases: "UPDATE tracked_url SET aliases = $1 WHERE account_id = $2 AND url_id = $3",
  dueNow: `UPDATE refresh_schedule SET ${DUE_AGAIN("$1::bigint", "GREATEST")} WHERE url_id = $2`,
  claim: CLAIM,
  trackingSince: `SELECT url_id AS "urlId", account_id AS "accountId" FROM tracked_url WHERE added_at >= $1`,
  trackers: `
    SELECT t.url_id, t.account_id, t.aliases, a.count_variants, a.networks, LEAST(q.first_at, t.added_at) AS since
    FROM tracked_url t JOIN account a ON a.id = t.account_id
    LEFT JOIN queried_url q ON q.account_id = t.account_id AND q.url_id = t.url_id
    WHERE t.url_id = ANY($1::int[]) ORDER BY t.url_id, t.account_id`,
  complete: `
    UPDATE refresh_schedule SET next_refresh_at = CASE WHEN next_refresh_at = $5 THEN $1 ELSE next_refresh_at END,
      last_refreshed_at = $2, lease_until = NULL, lease_token = NULL
    WHERE url_id = $3 AND lease_token = $4`,
  summaries: `
    UPDATE tracked_url t SET last_refreshed_at = $2, latest = v.latest, total = v.total, change_7d = v.change_7d, change_30d = v.change_30d
    FROM unnest($3::text[], $4::text[], $5::bigint[], $6::bigint[], $7::bigint[]) AS v(account_id, latest, total, change_7d, change_30d)
    WHERE t.url_id = $1 AND t.account_id = v.account_id`,
  forget: `
    DELETE FROM refresh_schedule WHERE url_id = $1 AND lease_token = $2
      AND NOT EXISTS (SELECT 1 FROM tracked_url WHERE url_id = $1)`,
  release: "UPDATE refresh_schedule SET lease_until = NULL, lease_token = NULL WHERE url_id = $1 AND lease_token = $2",
  scheduled: "SELECT COUNT(*)::int AS n FROM refresh_schedule",
  backlog: "SELECT COUNT(*)::int AS due, MIN(next_refresh_at) AS oldest FROM refresh_schedule WHERE next_refresh_at <= $1",
  accountBacklog: `
    SELECT COUNT(*)::int AS due, MIN(s.next_refresh_at) AS oldest
    FROM tracked_url t JOIN refresh_schedule s ON s.url_id = t.url_id
    WHERE t.account_id = $1 AND s.next_refresh_at <= $2`,
};

export function postgresTracked(sql: Sql): TrackedStore {
  // Page statements differ by sort, order, cursor and search: each text gets its own prepared name.
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (!name) names.set(text, (name = `trackedPage${names.size}`));
    return name;
  };
  return {
    async add(accountId, urlIds, limit, at) {
      const ids = [...new Set(urlIds)].sort((x, y) => x - y);
      return sql.transaction(async (client) => {
        await client.query(SQL.lock, [accountId]);
        const already = new Set((await client.query<{ url_id: number }>(SQL.tracked, [accountId, ids])).rows.map((r) => r.url_id));
        const fresh = ids.filter((id) => !already.has(id));
        const tracked = (await client.query<{ n: number }>(SQL.count, [accountId])).rows[0]!.n;
        if (tracked + fresh.length > limit) return { ok: false as const, slotsLeft: Math.max(0, limit - tracked) };
        await client.query(SQL.insert, [accountId, fresh, at]);
        await client.query(SQL.schedule, [fresh, at]);
        return { ok: true as const, added: fresh.length, alreadyTracked: urlIds.length - fresh.length };
      });
    },
    async remove(accountId, urlId) {
      return ((await sql.query("removeTracked", SQL.remove, [accountId, urlId])).rowCount ?? 0) > 0;
    },
    async get(accountId, urlId) {
      const row = (await sql.query<TrackedRow>("getTracked", SQL.get, [accountId, urlId])).rows[0];
      return row ? toTracked(row) : null;
    },
    async trackedAmong(accountId, urlIds) {
      const { rows } = await sql.query<{ url_id: number }>("trackedAmong", SQL.tracked, [accountId, [...urlIds]]);
      return new Set(rows.map((row) => row.url_id));
    },
    async pointsAfter(accountId, after, limit) {
      const { rows } = await sql.query<TrackedPointRow>("trackedPointsAfter", SQL.pointsAfter, [accountId, after.urlId, after.hour, limit]);
      return rows.map(toTrackedPoint);
    },
    async count(accountId) {
      return (await sql.query<{ n: number }>("countTracked", SQL.count, [accountId])).rows[0]!.n;
    },
    async page(accountId, query) {
      const list = pageStatements(accountId, query, (i) => `$${i}`, "ILIKE");
      return pageOf(query, list, async (text, values) => (await sql.query<TrackedRow>(nameOf(text), text, values)).rows);
    },
    async setAliases(accountId, urlId, aliases, at) {
      return sql.transaction(async (client) => {
        await client.query(SQL.lockSchedule, [urlId]);
        if ((await client.query(SQL.setAliases, [JSON.stringify(aliases), accountId, urlId])).rowCount === 0) return false;
        await client.query(SQL.dueNow, [at, urlId]);
        return true;
      });
    },
    async claimDue(now, max, leaseMs, token): Promise<DueRefresh[]> {
      const { rows } = await sql.query<{ url_id: number; url: string; first_tracked_at: number; next_refresh_at: number; position: number }>("claimDue", SQL.claim, [
        now,
        max,
        now + leaseMs,
        token,
      ]);
      // RETURNING keeps no order: the round's, as FAIR_DUE gave it.
      return rows
        .sort((x, y) => Number(x.position) - Number(y.position))
        .map((row) => ({ urlId: row.url_id, url: row.url, firstTrackedAt: row.first_tracked_at, dueAt: row.next_refresh_at }));
    },
    async trackingSince(since) {
      return (await sql.query<{ urlId: number; accountId: string }>("trackingSince", SQL.trackingSince, [since ?? Number.MIN_SAFE_INTEGER])).rows;
    },
    async trackersOf(urlIds) {
      const { rows } = await sql.query<{ url_id: number; account_id: string; aliases: string; count_variants: boolean; networks: string | null; since: number }>(
        "trackersOf",
        SQL.trackers,
        [[...urlIds]],
      );
      const trackers = new Map<number, Tracker[]>(urlIds.map((id) => [id, []]));
      for (const row of rows) {
        trackers.get(row.url_id)?.push({
          accountId: row.account_id,
          aliases: aliasList.parse(JSON.parse(row.aliases)),
          countVariants: row.count_variants,
          networks: networkListOf(row.networks),
          since: Number(row.since),
        });
      }
      return trackers;
    },
    async completeRefresh({ urlId, dueAt }, token, refreshedAt, nextAt, summaries) {
      return sql.transaction(async (client) => {
        if ((await client.query(SQL.complete, [nextAt, refreshedAt, urlId, token, dueAt])).rowCount === 0) return false;
        const columns = summaries.map(({ summary }) => summaryColumns(summary));
        await client.query(SQL.summaries, [
          urlId,
          refreshedAt,
          summaries.map((s) => s.accountId),
          columns.map((c) => c[0]),
          columns.map((c) => c[1]),
          columns.map((c) => c[2]),
          columns.map((c) => c[3]),
        ]);
        return true;
      });
    },
    async forget(urlId, token) {
      return ((await sql.query("forgetSchedule", SQL.forget, [urlId, token])).rowCount ?? 0) > 0;
    },
    async releaseLease(urlId, token) {
      await sql.query("releaseLease", SQL.release, [urlId, token]);
    },
    async backlog(accountId, now) {
      const row = (
        accountId === null
          ? await sql.query<{ due: number; oldest: number | null }>("backlog", SQL.backlog, [now])
          : await sql.query<{ due: number; oldest: number | null }>("accountBacklog", SQL.accountBacklog, [accountId, now])
      ).rows[0]!;
      return { due: row.due, oldestDueAt: row.oldest };
    },
    async scheduledUrls() {
      return (await sql.query<{ n: number }>("scheduledUrls", SQL.scheduled, [])).rows[0]!.n;
    },
  };
}
