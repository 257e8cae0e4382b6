import { networkListOf } from "../accounts.ts";
import type Database from "better-sqlite3";
import { z } from "zod";
import type { DueRefresh, Tracker, TrackedStore } from "../tracked.ts";
import { DUE_AGAIN, FAIR_DUE, pageOf, pageStatements, pointsAfterStatement, summaryColumns, TRACKED_SELECT, toTracked, toTrackedPoint, type PointsAfterParam, type TrackedPointRow, type TrackedRow } from "../tracked-rows.ts";

const aliasList = z.array(z.string());

export function sqliteTracked(db: Database.Database): TrackedStore {
  const statements = {
    count: db.prepare<[string], number>("SELECT COUNT(*) FROM tracked_url WHERE account_id = ?").pluck(),
    isTracked: db.prepare<[string, number], number>("SELECT 1 FROM tracked_url WHERE account_id = ? AND url_id = ?").pluck(),
    insert: db.prepare<[string, number, number]>("INSERT INTO tracked_url (account_id, url_id, added_at) VALUES (?, ?, ?)"),
    // A URL someone else tracks already is refreshed again now, so its new tracker gets counts within a minute.
    schedule: db.prepare<[number, number, number]>(`
      INSERT INTO refresh_schedule (url_id, first_tracked_at, next_refresh_at) VALUES (?, ?, ?)
      ON CONFLICT (url_id) DO UPDATE SET ${DUE_AGAIN("excluded.next_refresh_at", "MAX")}`),
    remove: db.prepare<[string, number]>("DELETE FROM tracked_url WHERE account_id = ? AND url_id = ?"),
    get: db.prepare<[string, number], TrackedRow>(`${TRACKED_SELECT} WHERE t.account_id = ? AND t.url_id = ?`),
    pointsAfter: db.prepare<Record<PointsAfterParam, string | number>, TrackedPointRow>(pointsAfterStatement((name) => `@${name}`, "MIN")),
    setAliases: db.prepare<[string, string, number]>("UPDATE tracked_url SET aliases = ? WHERE account_id = ? AND url_id = ?"),
    dueNow: db.prepare<{ at: number; urlId: number }>(`UPDATE refresh_schedule SET ${DUE_AGAIN("@at", "MAX")} WHERE url_id = @urlId`),
    due: db.prepare<{ now: number; max: number }, { url_id: number }>(FAIR_DUE),
    lease: db.prepare<[number, string, number]>("UPDATE refresh_schedule SET lease_until = ?, lease_token = ? WHERE url_id = ?"),
    leased: db.prepare<[number], { url_id: number; url: string; first_tracked_at: number; next_refresh_at: number }>(`
      SELECT s.url_id, c.url, s.first_tracked_at, s.next_refresh_at
      FROM refresh_schedule s JOIN counted_url c ON c.id = s.url_id WHERE s.url_id = ?`),
    trackingSince: db.prepare<[number], { urlId: number; accountId: string }>(
      "SELECT url_id AS urlId, account_id AS accountId FROM tracked_url WHERE added_at >= ?",
    ),
    trackers: db.prepare<[number], { account_id: string; aliases: string; count_variants: number; networks: string | null; since: number }>(`
      SELECT t.account_id, t.aliases, a.count_variants, a.networks, MIN(COALESCE(q.first_at, t.added_at), t.added_at) AS since
      FROM tracked_url t JOIN account a ON a.id = t.account_id
      LEFT JOIN queried_url q ON q.account_id = t.account_id AND q.url_id = t.url_id
      WHERE t.url_id = ? ORDER BY t.account_id`),
    complete: db.prepare<[number, number, number, number, string]>(`
      UPDATE refresh_schedule SET next_refresh_at = CASE WHEN next_refresh_at = ? THEN ? ELSE next_refresh_at END,
        last_refreshed_at = ?, lease_until = NULL, lease_token = NULL
      WHERE url_id = ? AND lease_token = ?`),
    summary: db.prepare<[number, string, number | null, number | null, number | null, string, number]>(`
      UPDATE tracked_url SET last_refreshed_at = ?, latest = ?, total = ?, change_7d = ?, change_30d = ?
      WHERE account_id = ? AND url_id = ?`),
    forget: db.prepare<[number, string, number]>(`
      DELETE FROM refresh_schedule WHERE url_id = ? AND lease_token = ?
        AND NOT EXISTS (SELECT 1 FROM tracked_url WHERE url_id = ?)`),
    release: db.prepare<[number, string]>(
      "UPDATE refresh_schedule SET lease_until = NULL, lease_token = NULL WHERE url_id = ? AND lease_token = ?",
    ),
    scheduled: db.prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM refresh_schedule"),
    backlog: db.prepare<[number], { due: number; oldest: number | null }>(
      "SELECT COUNT(*) AS due, MIN(next_refresh_at) AS oldest FROM refresh_schedule WHERE next_refresh_at <= ?",
    ),
    accountBacklog: db.prepare<[string, number], { due: number; oldest: number | null }>(`
      SELECT COUNT(*) AS due, MIN(s.next_refresh_at) AS oldest
      FROM tracked_url t JOIN refresh_schedule s ON s.url_id = t.url_id
      WHERE t.account_id = ? AND s.next_refresh_at <= ?`),
  };
  const pages = new Map<string, Database.Statement<unknown[], TrackedRow>>();
  const prepared = (text: string) => {
    let statement = pages.get(text);
    if (!statement) pages.set(text, (statement = db.prepare<unknown[], TrackedRow>(text)));
    return statement;
  };

  // BEGIN IMMEDIATE (better-sqlite3's .immediate): the count and the inserts see no other writer in between.
  const add = db.transaction((accountId: string, urlIds: readonly number[], limit: number, at: number) => {
    const fresh = [...new Set(urlIds)].filter((id) => statements.isTracked.get(accountId, id) !== 1);
    const tracked = statements.count.get(accountId)!;
    if (tracked + fresh.length > limit) return { ok: false as const, slotsLeft: Math.max(0, limit - tracked) };
    for (const id of fresh) {
      statements.insert.run(accountId, id, at);
      statements.schedule.run(id, at, at);
    }
    return { ok: true as const, added: fresh.length, alreadyTracked: urlIds.length - fresh.length };
  });

  const setAliases = db.transaction((accountId: string, urlId: number, aliases: readonly string[], at: number) => {
    if (statements.setAliases.run(JSON.stringify(aliases), accountId, urlId).changes === 0) return false;
    statements.dueNow.run({ at, urlId });
    return true;
  });

  const claim = db.transaction((now: number, max: number, leaseMs: number, token: string): DueRefresh[] =>
    statements.due.all({ now, max }).map(({ url_id }) => {
      statements.lease.run(now + leaseMs, token, url_id);
      const row = statements.leased.get(url_id)!;
      return { urlId: row.url_id, url: row.url, firstTrackedAt: row.first_tracked_at, dueAt: row.next_refresh_at };
    }),
  );

  const complete = db.transaction(
    (due: { urlId: number; dueAt: number }, token: string, refreshedAt: number, nextAt: number, summaries: Parameters<TrackedStore["completeRefresh"]>[4]) => {
      if (statements.complete.run(due.dueAt, nextAt, refreshedAt, due.urlId, token).changes === 0) return false;
      for (const { accountId, summary } of summaries) statements.summary.run(refreshedAt, ...summaryColumns(summary), accountId, due.urlId);
      return true;
    },
  );

  return {
    async add(accountId, urlIds, limit, at) {
      return add.immediate(accountId, urlIds, limit, at);
    },
    async remove(accountId, urlId) {
      return statements.remove.run(accountId, urlId).changes > 0;
    },
    async get(accountId, urlId) {
      const row = statements.get.get(accountId, urlId);
      return row ? toTracked(row) : null;
    },
    async count(accountId) {
      return statements.count.get(accountId)!;
    },
    async trackedAmong(accountId, urlIds) {
      return new Set(urlIds.filter((id) => statements.isTracked.get(accountId, id) === 1));
    },
    async pointsAfter(accountId, after, limit) {
      return statements.pointsAfter.all({ account: accountId, urlId: after.urlId, hour: after.hour, limit }).map(toTrackedPoint);
    },
    async page(accountId, query) {
      const list = pageStatements(accountId, query, () => "?", "LIKE");
      return pageOf(query, list, async (text, values) => prepared(text).all(...values));
    },
    async setAliases(accountId, urlId, aliases, at) {
      return setAliases(accountId, urlId, aliases, at);
    },
    async claimDue(now, max, leaseMs, token) {
      return claim.immediate(now, max, leaseMs, token);
    },
    async trackingSince(since) {
      return statements.trackingSince.all(since ?? Number.MIN_SAFE_INTEGER);
    },
    async trackersOf(urlIds) {
      const trackers = new Map<number, Tracker[]>();
      for (const urlId of urlIds) {
        trackers.set(
          urlId,
          statements.trackers.all(urlId).map((row) => ({
            accountId: row.account_id,
            aliases: aliasList.parse(JSON.parse(row.aliases)),
            countVariants: row.count_variants === 1,
            networks: networkListOf(row.networks),
            since: Number(row.since),
          })),
        );
      }
      return trackers;
    },
    async completeRefresh(due, token, refreshedAt, nextAt, summaries) {
      return complete(due, token, refreshedAt, nextAt, summaries);
    },
    async forget(urlId, token) {
      return statements.forget.run(urlId, token, urlId).changes > 0;
    },
    async releaseLease(urlId, token) {
      statements.release.run(urlId, token);
    },
    async backlog(accountId, now) {
      const row = accountId === null ? statements.backlog.get(now)! : statements.accountBacklog.get(accountId, now)!;
      return { due: row.due, oldestDueAt: row.oldest };
    },
    async scheduledUrls() {
      return statements.scheduled.get()!.n;
    },
  };
}
