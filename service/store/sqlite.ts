import Database from "better-sqlite3";
import { sqliteFileFromUrl } from "../../lib/db/sqlite-url.ts";
import { perTick } from "./per-tick.ts";
import type { AccountContext, BulkCompletion, BulkJobRow, QueuedBulkUrl, Store } from "./types.ts";
import { withOutagesTyped } from "./unavailable.ts";

interface AccountRow {
  id: string;
  plan_name: string;
  daily_quota: number;
  bulk_batch_limit: number;
  custom_ttl_allowed: number;
  whitelist_enabled: number;
  domains: string;
}

interface JobRow {
  id: string;
  account_id: string;
  urls_queued: number;
  urls_completed: number;
  created_at: number;
  completed_at: number | null;
  paused_until: number | null;
}

/** The embedded store: one SQLite file in WAL mode, every statement prepared once. */
export function openSqliteStore(databaseUrl: string): Store {
  const db = new Database(sqliteFileFromUrl(databaseUrl));
  db.pragma("journal_mode = WAL");
  // NORMAL in WAL mode survives a process crash (only an OS crash can lose the last commits).
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 5000");
  db.pragma("foreign_keys = ON");

  const statements = {
    ping: db.prepare("SELECT 1 FROM plan LIMIT 1"),
    // Prepared once: db.pragma() prepares a new statement on every call, which costs more than the lookup.
    dataVersion: db.prepare<[], number>("PRAGMA data_version").pluck(),
    accountByKeyHash: db.prepare<[string], AccountRow>(`
      SELECT a.id, a.plan_name, p.daily_quota, p.bulk_batch_limit, p.custom_ttl_allowed, a.whitelist_enabled,
             (SELECT json_group_array(w.domain) FROM whitelist_domain w WHERE w.account_id = a.id) AS domains
      FROM account a JOIN plan p ON p.name = a.plan_name
      WHERE a.api_key_hash = ?`),
    accountPlan: db.prepare<[string], Omit<AccountRow, "id" | "whitelist_enabled" | "domains">>(`
      SELECT p.name AS plan_name, p.daily_quota, p.bulk_batch_limit, p.custom_ttl_allowed
      FROM account a JOIN plan p ON p.name = a.plan_name WHERE a.id = ?`),
    largestBulkBatchLimit: db.prepare<[], number>("SELECT COALESCE(MAX(bulk_batch_limit), 0) FROM plan").pluck(),
    reserveQuery: db.prepare<[{ account: string; day: string; quota: number }], { queries: number }>(`
      INSERT INTO daily_usage (account_id, day, queries) SELECT @account, @day, 1 WHERE @quota > 0
      ON CONFLICT (account_id, day) DO UPDATE SET queries = queries + 1 WHERE daily_usage.queries < @quota
      RETURNING queries`),
    addQueries: db.prepare<[{ account: string; day: string; queries: number }], { queries: number }>(`
      INSERT INTO daily_usage (account_id, day, queries) VALUES (@account, @day, @queries)
      ON CONFLICT (account_id, day) DO UPDATE SET queries = queries + excluded.queries
      RETURNING queries`),
    releaseQuery: db.prepare<[string, string]>(
      "UPDATE daily_usage SET queries = queries - 1 WHERE account_id = ? AND day = ? AND queries > 0",
    ),
    queriesOn: db.prepare<[string, string], { queries: number }>(
      "SELECT queries FROM daily_usage WHERE account_id = ? AND day = ?",
    ),
    usageBetween: db.prepare<[string, string, string], { day: string; queries: number }>(
      "SELECT day, queries FROM daily_usage WHERE account_id = ? AND day >= ? AND day <= ? ORDER BY day",
    ),
    allocations: db.prepare<[string], { day: string; daily_quota: number }>(
      "SELECT day, daily_quota FROM quota_allocation WHERE account_id = ? ORDER BY day",
    ),
    knownCount: db.prepare<[string, string], { value: string; fetched_at: number }>(
      "SELECT value, fetched_at FROM network_count WHERE url = ? AND network = ?",
    ),
    saveKnownCount: db.prepare<[string, string, string, number]>(`
      INSERT INTO network_count (url, network, value, fetched_at) VALUES (?, ?, ?, ?)
      ON CONFLICT (url, network) DO UPDATE SET value = excluded.value, fetched_at = excluded.fetched_at`),
    insertJob: db.prepare<[string, string, number, number]>(
      "INSERT INTO bulk_job (id, account_id, urls_queued, urls_completed, created_at) VALUES (?, ?, ?, 0, ?)",
    ),
    insertUrl: db.prepare<[string, string, string]>(
      "INSERT OR IGNORE INTO bulk_url (job_id, url, count_url) VALUES (?, ?, ?)",
    ),
    bulkJob: db.prepare<[string, string], JobRow>("SELECT * FROM bulk_job WHERE id = ? AND account_id = ?"),
    bulkResults: db.prepare<[string], { url: string; result: string }>(
      "SELECT url, result FROM bulk_url WHERE job_id = ? AND completed_at IS NOT NULL ORDER BY id",
    ),
    activeBulkJobs: db.prepare<[number], { id: string; account_id: string; urls_completed: number; created_at: number }>(`
      SELECT id, account_id, urls_completed, created_at FROM bulk_job
      WHERE completed_at IS NULL AND (paused_until IS NULL OR paused_until <= ?)
      ORDER BY created_at`),
    queuedBulkUrls: db.prepare<[string, number, number], { id: number; count_url: string }>(
      "SELECT id, count_url FROM bulk_url WHERE job_id = ? AND completed_at IS NULL AND id > ? ORDER BY id LIMIT ?",
    ),
    completeUrl: db.prepare<[string, number, number]>(
      "UPDATE bulk_url SET result = ?, completed_at = ? WHERE id = ? AND completed_at IS NULL",
    ),
    advanceJob: db.prepare<[number, string]>(`
      UPDATE bulk_job SET urls_completed = urls_completed + 1,
        completed_at = CASE WHEN urls_completed + 1 >= urls_queued THEN ? ELSE NULL END
      WHERE id = ?`),
    pauseJobs: db.prepare<[number, string]>(
      "UPDATE bulk_job SET paused_until = ? WHERE account_id = ? AND completed_at IS NULL",
    ),
    deleteExpiredJobs: db.prepare<[number, number]>(
      "DELETE FROM bulk_job WHERE completed_at < ? OR (completed_at IS NULL AND created_at < ?)",
    ),
  };

  class QuotaExhausted extends Error {}

  const createBulkJob = db.transaction(
    (job: { id: string; accountId: string; createdAt: number }, urls: { url: string; countUrl: string }[]) => {
      statements.insertJob.run(job.id, job.accountId, urls.length, job.createdAt);
      for (const u of urls) statements.insertUrl.run(job.id, u.url, u.countUrl);
    },
  );

  const completeBulkUrl = db.transaction(
    (item: QueuedBulkUrl, quota: { day: string; dailyQuota: number | null }, result: string, now: number): BulkCompletion => {
      if (statements.completeUrl.run(result, now, item.id).changes === 0) return "already_done";
      if (quota.dailyQuota === null) {
        statements.addQueries.get({ account: item.accountId, day: quota.day, queries: 1 });
      } else if (!statements.reserveQuery.get({ account: item.accountId, day: quota.day, quota: quota.dailyQuota })) {
        throw new QuotaExhausted();
      }
      statements.advanceJob.run(now, item.jobId);
      return "completed";
    },
  );

  /**
   * Reservations made in one turn of the event loop commit in one transaction: each is still its own
   * conditional increment (so the quota stays exact) and is committed before its answer goes out, but the
   * commit is paid once per batch rather than once per request.
   */
  const addQueries = db.transaction((counts: { accountId: string; day: string; queries: number }[]) =>
    counts.map((c) => statements.addQueries.get({ account: c.accountId, day: c.day, queries: c.queries })!.queries),
  );
  const reserve = perTick(
    db.transaction((batch: { account: string; day: string; quota: number }[]) =>
      batch.map((r) => statements.reserveQuery.get(r)?.queries ?? null),
    ),
  );
  /**
   * data_version read once per turn of the event loop: every request handled in this turn had arrived
   * before the first of them read it, so none of them can miss a change committed before it arrived.
   */
  let turnVersion: number | null = null;
  const dataVersion = () => {
    if (turnVersion === null) {
      turnVersion = statements.dataVersion.get()!;
      setImmediate(() => (turnVersion = null));
    }
    return turnVersion;
  };

  const toJob = (row: JobRow): BulkJobRow => ({
    id: row.id,
    accountId: row.account_id,
    urlsQueued: row.urls_queued,
    urlsCompleted: row.urls_completed,
    createdAt: row.created_at,
    completedAt: row.completed_at,
    pausedUntil: row.paused_until,
  });

  // SQLite's own errors (a locked, full or corrupt file) and calls on a closed database are outages.
  const isOutage = (error: unknown) => error instanceof Database.SqliteError || (error instanceof TypeError && !db.open);
  const store: Store = {
    async ping() {
      statements.ping.get();
    },
    async close() {
      db.close();
    },

    async accountsVersion() {
      // This connection never writes accounts, plans or whitelists; every such change is another
      // connection's commit, which is exactly what SQLite's data_version counts.
      return dataVersion();
    },
    async accountByKeyHash(keyHash): Promise<AccountContext | null> {
      const row = statements.accountByKeyHash.get(keyHash);
      if (!row) return null;
      return {
        id: row.id,
        plan: {
          name: row.plan_name,
          dailyQuota: row.daily_quota,
          bulkBatchLimit: row.bulk_batch_limit,
          customTtlAllowed: row.custom_ttl_allowed === 1,
        },
        whitelist: { enabled: row.whitelist_enabled === 1, domains: JSON.parse(row.domains) as string[] },
      };
    },
    async largestBulkBatchLimit() {
      return statements.largestBulkBatchLimit.get()!;
    },
    async accountPlan(accountId) {
      const row = statements.accountPlan.get(accountId);
      if (!row) return null;
      return {
        name: row.plan_name,
        dailyQuota: row.daily_quota,
        bulkBatchLimit: row.bulk_batch_limit,
        customTtlAllowed: row.custom_ttl_allowed === 1,
      };
    },

    reserveQuery(accountId, day, dailyQuota) {
      return reserve({ account: accountId, day, quota: dailyQuota });
    },
    async releaseQuery(accountId, day) {
      statements.releaseQuery.run(accountId, day);
    },
    async addQueries(counts) {
      return addQueries(counts);
    },
    async queriesOn(accountId, day) {
      return statements.queriesOn.get(accountId, day)?.queries ?? 0;
    },
    async usageBetween(accountId, fromDay, toDay) {
      return statements.usageBetween.all(accountId, fromDay, toDay);
    },
    async allocations(accountId) {
      return statements.allocations.all(accountId).map((r) => ({ day: r.day, dailyQuota: r.daily_quota }));
    },

    async knownCount(url, network) {
      const row = statements.knownCount.get(url, network);
      return row ? { value: row.value, fetchedAt: row.fetched_at } : null;
    },
    async saveKnownCount(url, network, value, fetchedAt) {
      statements.saveKnownCount.run(url, network, value, fetchedAt);
    },

    async createBulkJob(job, urls) {
      createBulkJob(job, urls);
    },
    async bulkJob(id, accountId) {
      const row = statements.bulkJob.get(id, accountId);
      return row ? toJob(row) : null;
    },
    async bulkResults(jobId) {
      return statements.bulkResults.all(jobId);
    },
    async activeBulkJobs(now) {
      return statements.activeBulkJobs
        .all(now)
        .map((r) => ({ id: r.id, accountId: r.account_id, urlsCompleted: r.urls_completed, createdAt: r.created_at }));
    },
    async queuedBulkUrls(job, afterId, limit) {
      return statements.queuedBulkUrls
        .all(job.id, afterId, limit)
        .map((r) => ({ id: r.id, jobId: job.id, accountId: job.accountId, countUrl: r.count_url }));
    },
    async completeBulkUrl(item, quota, result, now) {
      try {
        return completeBulkUrl(item, quota, result, now);
      } catch (error) {
        if (error instanceof QuotaExhausted) return "quota_exhausted";
        throw error;
      }
    },
    async pauseBulkJobs(accountId, until) {
      statements.pauseJobs.run(until, accountId);
    },
    async deleteExpiredBulkJobs(completedBefore, createdBefore) {
      return statements.deleteExpiredJobs.run(completedBefore, createdBefore).changes;
    },
  };
  return withOutagesTyped(store, isOutage);
}
