import type Database from "better-sqlite3";
import { perTick } from "../per-tick.ts";
import type { Reservation, UsageStore } from "../usage.ts";

type Reserve = (r: Reservation) => number | null;

/**
 * The daily usage rows. `reserveIn` is the conditional increment for callers that count a query inside a
 * transaction of their own (a bulk URL is stored and counted together).
 */
export function sqliteUsage(db: Database.Database): { usage: UsageStore; reserveIn: Reserve } {
  const statements = {
    reserve: db.prepare<[{ account: string; day: string; queries: number; quota: number }], { queries: number }>(`
      INSERT INTO daily_usage (account_id, day, queries) SELECT @account, @day, @queries WHERE @queries <= @quota
      ON CONFLICT (account_id, day) DO UPDATE SET queries = queries + @queries WHERE daily_usage.queries + @queries <= @quota
      RETURNING queries`),
    release: db.prepare<[string, string]>(
      "UPDATE daily_usage SET queries = queries - 1 WHERE account_id = ? AND day = ? AND queries > 0",
    ),
    queriesOn: db.prepare<[string, string], number>("SELECT queries FROM daily_usage WHERE account_id = ? AND day = ?").pluck(),
    between: db.prepare<[string, string, string], { day: string; queries: number }>(
      "SELECT day, queries FROM daily_usage WHERE account_id = ? AND day >= ? AND day <= ? ORDER BY day",
    ),
    allocations: db.prepare<[string], { day: string; daily_quota: number }>(
      "SELECT day, daily_quota FROM quota_allocation WHERE account_id = ? ORDER BY day",
    ),
    hasUsage: db.prepare<[string], number>("SELECT 1 FROM daily_usage WHERE account_id = ? LIMIT 1").pluck(),
    insertDay: db.prepare<[string, string, number]>("INSERT INTO daily_usage (account_id, day, queries) VALUES (?, ?, ?)"),
  };

  const reserveIn: Reserve = (r) =>
    statements.reserve.get({ account: r.accountId, day: r.day, queries: r.queries, quota: r.dailyQuota })?.queries ?? null;
  const reserveMany = db.transaction((reservations: Reservation[]) => reservations.map(reserveIn));
  /**
   * Reservations made in one turn of the event loop commit in one transaction: each is still its own
   * conditional increment (so the quota stays exact) and is committed before its answer goes out, but the
   * commit is paid once per batch rather than once per request.
   */
  const reserveBatched = perTick(reserveMany);
  const importHistory = db.transaction((accountId: string, days: { day: string; queries: number }[]) => {
    if (statements.hasUsage.get(accountId)) return false;
    for (const d of days) statements.insertDay.run(accountId, d.day, d.queries);
    return true;
  });

  const usage: UsageStore = {
    reserve(accountId, day, dailyQuota) {
      return reserveBatched({ accountId, day, queries: 1, dailyQuota });
    },
    async reserveMany(reservations) {
      return reserveMany(reservations);
    },
    async release(accountId, day) {
      statements.release.run(accountId, day);
    },
    async queriesOn(accountId, day) {
      return statements.queriesOn.get(accountId, day) ?? 0;
    },
    async between(accountId, fromDay, toDay) {
      return statements.between.all(accountId, fromDay, toDay);
    },
    async allocations(accountId) {
      return statements.allocations.all(accountId).map((r) => ({ day: r.day, dailyQuota: r.daily_quota }));
    },
    async importHistory(accountId, days) {
      return importHistory(accountId, days);
    },
  };
  return { usage, reserveIn };
}
