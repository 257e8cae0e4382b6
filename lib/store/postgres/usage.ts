import { REFUSAL_REASONS, type CountedDay, type RefusedDay, type Reservation, type UsageStore } from "../usage.ts";
import { sortedBy, type Sql } from "./pool.ts";

const SQL = {
  // One statement: the conflicting row is locked while its condition is re-checked, so concurrent
  // reservations from any number of processes never count past the quota.
  reserve: `
    INSERT INTO daily_usage (account_id, day, queries) SELECT $1, $2, 1 WHERE $3::int > 0
    ON CONFLICT (account_id, day) DO UPDATE SET queries = daily_usage.queries + 1 WHERE daily_usage.queries < $3::int
    RETURNING queries`,
  // Rows sorted by the caller, so every process locks them in one order. A row refused by its quota is
  // missing from what is returned.
  reserveMany: `
    INSERT INTO daily_usage (account_id, day, queries)
    SELECT w.account_id, w.day, w.queries FROM unnest($1::text[], $2::text[], $3::int[], $4::int[]) AS w(account_id, day, queries, quota)
    WHERE w.queries <= w.quota
    ON CONFLICT (account_id, day) DO UPDATE SET queries = daily_usage.queries + excluded.queries
    WHERE daily_usage.queries + excluded.queries <= (
      SELECT q.quota FROM unnest($1::text[], $2::text[], $4::int[]) AS q(account_id, day, quota)
      WHERE q.account_id = excluded.account_id AND q.day = excluded.day)
    RETURNING account_id, day, queries`,
  // The row first (a no-op when it exists), then one statement that locks it, reads what is left and takes
  // what fits: $3 wanted, $4 the quota, $5 the fewest worth taking.
  ensureRow: "INSERT INTO daily_usage (account_id, day, queries) VALUES ($1, $2, 0) ON CONFLICT (account_id, day) DO NOTHING",
  reserveUpTo: `
    UPDATE daily_usage d SET queries = d.queries + g.granted
    FROM (SELECT LEAST($3::int, $4::int - queries) AS granted FROM daily_usage WHERE account_id = $1 AND day = $2 FOR UPDATE) g
    WHERE d.account_id = $1 AND d.day = $2 AND g.granted > 0 AND g.granted >= $5::int
    RETURNING g.granted`,
  release: "UPDATE daily_usage SET queries = GREATEST(queries - $3::int, 0) WHERE account_id = $1 AND day = $2 AND queries > 0",
  queriesOn: "SELECT queries FROM daily_usage WHERE account_id = $1 AND day = $2",
  between: "SELECT day, queries FROM daily_usage WHERE account_id = $1 AND day >= $2 AND day <= $3 ORDER BY day",
  allocations: "SELECT day, daily_quota FROM quota_allocation WHERE account_id = $1 ORDER BY day",
  // One statement: of two processes importing at once, the second finds the rows and inserts none.
  importHistory: `
    INSERT INTO daily_usage (account_id, day, queries)
    SELECT $1, u.day, u.queries FROM unnest($2::text[], $3::int[]) AS u(day, queries)
    WHERE NOT EXISTS (SELECT 1 FROM daily_usage WHERE account_id = $1)
    ON CONFLICT (account_id, day) DO NOTHING`,
  // Rows merged and sorted by the caller (one statement cannot update a row twice; one lock order for every
  // process); the join leaves out accounts that no longer exist.
  addRefusals: `
    INSERT INTO daily_refusal (account_id, day, quota, whitelist, invalid)
    SELECT r.account_id, r.day, r.quota, r.whitelist, r.invalid
    FROM unnest($1::text[], $2::text[], $3::int[], $4::int[], $5::int[]) WITH ORDINALITY AS r(account_id, day, quota, whitelist, invalid, n)
    JOIN account a ON a.id = r.account_id
    ORDER BY r.n
    ON CONFLICT (account_id, day) DO UPDATE SET quota = daily_refusal.quota + excluded.quota,
      whitelist = daily_refusal.whitelist + excluded.whitelist, invalid = daily_refusal.invalid + excluded.invalid`,
  // Rows merged by the caller (one statement cannot update a row twice), in one lock order for every process.
  raiseTo: `
    INSERT INTO daily_usage (account_id, day, queries)
    SELECT u.account_id, u.day, u.queries
    FROM unnest($1::text[], $2::text[], $3::int[]) WITH ORDINALITY AS u(account_id, day, queries, n)
    JOIN account a ON a.id = u.account_id
    ORDER BY u.n
    ON CONFLICT (account_id, day) DO UPDATE SET queries = excluded.queries WHERE daily_usage.queries < excluded.queries`,
  refusalsBetween: "SELECT day, quota, whitelist, invalid FROM daily_refusal WHERE account_id = $1 AND day >= $2 AND day <= $3 ORDER BY day",
};

/** A daily usage row's key: one statement cannot update a row twice, so a row's reservations are merged. */
const rowKey = (r: { accountId: string; day: string }) => `${r.day} ${r.accountId}`;

/** The days' refusals with one row per account and day, in one order for every process. */
function mergedRefusals(days: readonly RefusedDay[]): RefusedDay[] {
  const merged = new Map<string, RefusedDay>();
  for (const d of days) {
    const row = merged.get(rowKey(d));
    if (!row) merged.set(rowKey(d), { ...d, refused: { ...d.refused } });
    else for (const reason of REFUSAL_REASONS) row.refused[reason] += d.refused[reason];
  }
  return sortedBy(merged.entries());
}

/**
 * Reservations are not batched per event-loop turn as on SQLite: each is one round trip on the pool (with
 * Redis, the quota counters live there and only their per-turn totals come here, through reserveMany).
 */
export function postgresUsage(sql: Sql): UsageStore {
  return {
    async reserve(accountId, day, dailyQuota) {
      const row = (await sql.query<{ queries: number }>("reserveQuery", SQL.reserve, [accountId, day, dailyQuota])).rows[0];
      return row?.queries ?? null;
    },
    async reserveMany(reservations) {
      if (reservations.length === 0) return [];
      const merged = new Map<string, Reservation>();
      for (const r of reservations) {
        const row = merged.get(rowKey(r));
        if (row) {
          row.queries += r.queries;
          row.dailyQuota = Math.min(row.dailyQuota, r.dailyQuota);
        } else merged.set(rowKey(r), { ...r });
      }
      const rows = sortedBy(merged.entries());
      const result = await sql.query<{ account_id: string; day: string; queries: number }>("reserveMany", SQL.reserveMany, [
        rows.map((r) => r.accountId),
        rows.map((r) => r.day),
        rows.map((r) => r.queries),
        rows.map((r) => r.dailyQuota),
      ]);
      const totals = new Map(result.rows.map((r) => [rowKey({ accountId: r.account_id, day: r.day }), r.queries]));
      return reservations.map((r) => totals.get(rowKey(r)) ?? null);
    },
    async reserveUpTo(accountId, day, dailyQuota, wanted, minimum) {
      await sql.query("ensureUsageRow", SQL.ensureRow, [accountId, day]);
      const row = (await sql.query<{ granted: number }>("reserveUpTo", SQL.reserveUpTo, [accountId, day, wanted, dailyQuota, minimum])).rows[0];
      return row?.granted ?? 0;
    },
    async release(accountId, day) {
      await sql.query("releaseQuery", SQL.release, [accountId, day, 1]);
    },
    async releaseMany(accountId, day, count) {
      if (count > 0) await sql.query("releaseQuery", SQL.release, [accountId, day, count]);
    },
    async queriesOn(accountId, day) {
      return (await sql.query<{ queries: number }>("queriesOn", SQL.queriesOn, [accountId, day])).rows[0]?.queries ?? 0;
    },
    async between(accountId, fromDay, toDay) {
      return (await sql.query<{ day: string; queries: number }>("usageBetween", SQL.between, [accountId, fromDay, toDay])).rows;
    },
    async allocations(accountId) {
      const { rows } = await sql.query<{ day: string; daily_quota: number }>("allocations", SQL.allocations, [accountId]);
      return rows.map((r) => ({ day: r.day, dailyQuota: r.daily_quota }));
    },
    async importHistory(accountId, days) {
      const result = await sql.query("importUsageHistory", SQL.importHistory, [accountId, days.map((d) => d.day), days.map((d) => d.queries)]);
      return (result.rowCount ?? 0) > 0;
    },
    async addRefusals(days) {
      if (days.length === 0) return;
      const rows = mergedRefusals(days);
      await sql.query("addRefusals", SQL.addRefusals, [
        rows.map((r) => r.accountId),
        rows.map((r) => r.day),
        ...REFUSAL_REASONS.map((reason) => rows.map((r) => r.refused[reason])),
      ]);
    },
    async raiseTo(days) {
      if (days.length === 0) return;
      const highest = new Map<string, CountedDay>();
      for (const d of days) if ((highest.get(rowKey(d))?.queries ?? -1) < d.queries) highest.set(rowKey(d), d);
      const rows = sortedBy(highest);
      await sql.query("raiseUsage", SQL.raiseTo, [rows.map((r) => r.accountId), rows.map((r) => r.day), rows.map((r) => r.queries)]);
    },
    async refusalsBetween(accountId, fromDay, toDay) {
      const { rows } = await sql.query<{ day: string; quota: number; whitelist: number; invalid: number }>("refusalsBetween", SQL.refusalsBetween, [
        accountId,
        fromDay,
        toDay,
      ]);
      return rows.map(({ day, ...refused }) => ({ day, refused }));
    },
  };
}
