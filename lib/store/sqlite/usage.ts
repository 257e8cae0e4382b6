import type Database from "better-sqlite3";
import { perTick } from "../per-tick.ts";
import type { CountedDay, RefusedDay, Reservation, UsageStore } from "../usage.ts";

type Reserve = (r: Reservation) => number | null;

/**
 * The daily usage rows. `reserveIn` is the conditional increment, run inside a transaction (it reads the new
 * total in a second statement): this module's, or a caller's own (a bulk URL is stored and counted together).
 */
export function sqliteUsage(db: Database.Database): { usage: UsageStore; reserveIn: Reserve } {
  const statements = {
    // Counted without RETURNING, and the new total read after: SQLite collects RETURNING rows in a temporary
    // table, which cost several times the increment itself.
    reserve: db.prepare<[{ account: string; day: string; queries: number; quota: number }]>(`
      INSERT INTO daily_usage (account_id, day, queries) VALUES (@account, @day, @queries)
      ON CONFLICT (account_id, day) DO UPDATE SET queries = queries + @queries WHERE daily_usage.queries + @queries <= @quota`),
    release: db.prepare<[number, string, string]>(
      "UPDATE daily_usage SET queries = MAX(queries - ?, 0) WHERE account_id = ? AND day = ? AND queries > 0",
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
    addRefusals: db.prepare<[{ account: string; day: string; quota: number; whitelist: number; invalid: number }]>(`
      INSERT INTO daily_refusal (account_id, day, quota, whitelist, invalid)
      SELECT @account, @day, @quota, @whitelist, @invalid WHERE EXISTS (SELECT 1 FROM account WHERE id = @account)
      ON CONFLICT (account_id, day) DO UPDATE SET
        quota = quota + excluded.quota, whitelist = whitelist + excluded.whitelist, invalid = invalid + excluded.invalid`),
    raiseTo: db.prepare<[{ account: string; day: string; queries: number }]>(`
      INSERT INTO daily_usage (account_id, day, queries)
      SELECT @account, @day, @queries WHERE EXISTS (SELECT 1 FROM account WHERE id = @account)
      ON CONFLICT (account_id, day) DO UPDATE SET queries = excluded.queries WHERE queries < excluded.queries`),
    refusalsBetween: db.prepare<[string, string, string], { day: string; quota: number; whitelist: number; invalid: number }>(
      "SELECT day, quota, whitelist, invalid FROM daily_refusal WHERE account_id = ? AND day >= ? AND day <= ? ORDER BY day",
    ),
  };

  const reserveIn: Reserve = (r) => {
    // The statement's condition holds an existing row to the quota; a new row must fit it too.
    if (r.queries > r.dailyQuota) return null;
    const { changes } = statements.reserve.run({ account: r.accountId, day: r.day, queries: r.queries, quota: r.dailyQuota });
    return changes === 0 ? null : statements.queriesOn.get(r.accountId, r.day)!;
  };
  const reserveMany = db.transaction((reservations: Reservation[]) => reservations.map(reserveIn));
  const reserveAtLeast = db.transaction((r: Reservation, minimum: number): number => {
    const used = statements.queriesOn.get(r.accountId, r.day) ?? 0;
    const granted = Math.min(r.queries, r.dailyQuota - used);
    if (granted <= 0 || granted < minimum) return 0;
    reserveIn({ ...r, queries: granted });
    return granted;
  });

  /**
   * As many as possible of `wanted` queries on one usage row within its quota: usually one conditional
   * increment of them all; only when they do not all fit is the row read, and what is left taken.
   */
  const reserveUpTo = (r: Reservation): { granted: number; total: number } => {
    const total = reserveIn(r);
    if (total !== null) return { granted: r.queries, total };
    const used = statements.queriesOn.get(r.accountId, r.day) ?? 0;
    const granted = Math.min(r.queries, r.dailyQuota - used);
    if (granted <= 0) return { granted: 0, total: used };
    return { granted, total: reserveIn({ ...r, queries: granted })! };
  };

  /**
   * One turn's reservations of single queries, in one transaction: those on the same row (and quota) are
   * counted together, and the first callers get the counts up to the new total, in order. The quota stays
   * exact (the transaction takes the write lock as it begins, before any row is read) and every count is
   * committed before its answer goes out, while a turn costs a statement or two per row, not per request.
   */
  const reserveTurn = db.transaction((reservations: Omit<Reservation, "queries">[]) => {
    const rows = new Map<string, number[]>();
    reservations.forEach((r, i) => {
      const key = `${r.dailyQuota} ${r.day} ${r.accountId}`;
      const callers = rows.get(key);
      if (callers) callers.push(i);
      else rows.set(key, [i]);
    });
    const results: (number | null)[] = new Array<number | null>(reservations.length).fill(null);
    for (const callers of rows.values()) {
      const { granted, total } = reserveUpTo({ ...reservations[callers[0]!]!, queries: callers.length });
      for (let j = 0; j < granted; j++) results[callers[j]!] = total - granted + 1 + j;
    }
    return results;
  });
  const reserveBatched = perTick((reservations: Omit<Reservation, "queries">[]) => reserveTurn.immediate(reservations));
  const importHistory = db.transaction((accountId: string, days: { day: string; queries: number }[]) => {
    if (statements.hasUsage.get(accountId)) return false;
    for (const d of days) statements.insertDay.run(accountId, d.day, d.queries);
    return true;
  });

  const addRefusals = db.transaction((days: readonly RefusedDay[]) => {
    for (const { accountId, day, refused } of days) statements.addRefusals.run({ account: accountId, day, ...refused });
  });

  const raiseTo = db.transaction((days: readonly CountedDay[]) => {
    for (const { accountId, day, queries } of days) statements.raiseTo.run({ account: accountId, day, queries });
  });

  const usage: UsageStore = {
    reserve(accountId, day, dailyQuota) {
      return reserveBatched({ accountId, day, dailyQuota });
    },
    async reserveMany(reservations) {
      return reserveMany(reservations);
    },
    async reserveUpTo(accountId, day, dailyQuota, wanted, minimum) {
      return reserveAtLeast.immediate({ accountId, day, dailyQuota, queries: wanted }, minimum);
    },
    async release(accountId, day) {
      statements.release.run(1, accountId, day);
    },
    async releaseMany(accountId, day, count) {
      if (count > 0) statements.release.run(count, accountId, day);
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
    async addRefusals(days) {
      if (days.length > 0) addRefusals.immediate(days);
    },
    async raiseTo(days) {
      if (days.length > 0) raiseTo.immediate(days);
    },
    async refusalsBetween(accountId, fromDay, toDay) {
      return statements.refusalsBetween.all(accountId, fromDay, toDay).map(({ day, ...refused }) => ({ day, refused }));
    },
  };
  return { usage, reserveIn };
}
