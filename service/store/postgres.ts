import pg from "pg";
import { pgPoolConfig } from "../../lib/db/postgres-adapter.ts";
import { perTick } from "./per-tick.ts";
import { AccountsListener } from "./postgres-listener.ts";
import type { AccountContext, BulkCompletion, BulkJobRow, PlanLimits, QueuedBulkUrl, Store } from "./types.ts";
import { withOutagesTyped } from "./unavailable.ts";

interface PlanRow {
  plan_name: string;
  daily_quota: number;
  bulk_batch_limit: number;
  custom_ttl_allowed: boolean;
}

interface AccountRow extends PlanRow {
  id: string;
  whitelist_enabled: boolean;
  domains: string[];
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

const INT8_OID = 20;

/**
 * Epoch-millisecond columns are BIGINT; `pg` returns int8 as a string by default (it may exceed 2^53).
 * Milliseconds since 1970 stay far below 2^53, so this pool reads int8 as a number (for its own
 * connections only: the global `pg.types` are left alone).
 */
const types = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === INT8_OID && format !== "binary") return (value: string) => Number(value);
    return (pg.types.getTypeParser as (oid: number, format?: "text" | "binary") => unknown)(oid, format);
  },
} as unknown as pg.CustomTypesConfig;

/** A daily usage row's key: repeats are merged first, since one statement cannot update a row twice. */
const rowKey = (c: { accountId: string; day: string }) => `${c.day} ${c.accountId}`;

/** Connection-level failures: PostgreSQL could not be reached or used, as opposed to a bug in a query. */
const NETWORK_ERROR_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);
const UNAVAILABLE_MESSAGES = [
  /Cannot use a pool after calling end on the pool/i,
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error/i,
  /Client was closed and is not queryable/i,
];

function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") {
    if (NETWORK_ERROR_CODES.has(code)) return true;
    // Class 08: connection exception; 57P01..57P05: admin/crash shutdown, cannot connect now, idle
    // session timeout; 53300: too many connections; 3D000: the database does not exist (dropped).
    if (code.startsWith("08") || /^57P0[1-5]$/.test(code) || code === "53300" || code === "3D000") return true;
  }
  return UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(error.message));
}

/**
 * The scale-out store: PostgreSQL through a `pg` pool. Same semantics as the SQLite store, made exact
 * across processes: quota reservations are single conditional upserts (row-locked by PostgreSQL), and a
 * bulk URL is locked, counted, completed and its job advanced in one statement that only does anything
 * for the one process that still finds the URL queued (and nothing at all when the quota is used up).
 * Reservations are not batched per event-loop turn as on SQLite: each is one round trip on the pool (with
 * Redis, the quota counters live there and only their per-turn totals come here). Accounts are cached by
 * the API until PostgreSQL notifies a change (AccountsListener).
 */
export function openPostgresStore(databaseUrl: string): Store {
  const pool = new pg.Pool({
    ...pgPoolConfig(databaseUrl),
    types,
    max: 10,
    // A request must not wait forever for a database that is gone: it becomes a 503.
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  let closed = false;
  // An idle connection that breaks (server restart, database dropped) must not crash the process: the
  // pool discards it, and the next query opens a new one (or fails with an unavailable error).
  pool.on("error", () => {});

  const query = <R extends pg.QueryResultRow>(name: string, text: string, values: unknown[] = []) =>
    pool.query<R>({ name, text, values });

  const SQL = {
    ping: "SELECT 1 FROM plan LIMIT 1",
    accountByKeyHash: `
      SELECT a.id, a.plan_name, p.daily_quota, p.bulk_batch_limit, p.custom_ttl_allowed, a.whitelist_enabled,
             ARRAY(SELECT w.domain FROM whitelist_domain w WHERE w.account_id = a.id ORDER BY w.domain) AS domains
      FROM account a JOIN plan p ON p.name = a.plan_name
      WHERE a.api_key_hash = $1`,
    largestBulkBatchLimit: "SELECT COALESCE(MAX(bulk_batch_limit), 0)::int AS n FROM plan",
    accountPlan: `
      SELECT p.name AS plan_name, p.daily_quota, p.bulk_batch_limit, p.custom_ttl_allowed
      FROM account a JOIN plan p ON p.name = a.plan_name WHERE a.id = $1`,
    // One statement: the conflicting row is locked while its condition is re-checked, so concurrent
    // reservations from any number of processes never count past the quota.
    reserveQuery: `
      INSERT INTO daily_usage (account_id, day, queries) SELECT $1, $2, 1 WHERE $3::int > 0
      ON CONFLICT (account_id, day) DO UPDATE SET queries = daily_usage.queries + 1 WHERE daily_usage.queries < $3::int
      RETURNING queries`,
    // Keys sorted by the caller: rows are locked in one order by every process, so batches never deadlock.
    addQueries: `
      INSERT INTO daily_usage (account_id, day, queries) SELECT * FROM unnest($1::text[], $2::text[], $3::int[])
      ON CONFLICT (account_id, day) DO UPDATE SET queries = daily_usage.queries + excluded.queries
      RETURNING account_id, day, queries`,
    releaseQuery: "UPDATE daily_usage SET queries = queries - 1 WHERE account_id = $1 AND day = $2 AND queries > 0",
    queriesOn: "SELECT queries FROM daily_usage WHERE account_id = $1 AND day = $2",
    usageBetween: "SELECT day, queries FROM daily_usage WHERE account_id = $1 AND day >= $2 AND day <= $3 ORDER BY day",
    allocations: "SELECT day, daily_quota FROM quota_allocation WHERE account_id = $1 ORDER BY day",
    knownCount: "SELECT value, fetched_at FROM network_count WHERE url = $1 AND network = $2",
    // One statement per event-loop turn for every count fetched in it (keys sorted, repeats merged).
    saveKnownCounts: `
      INSERT INTO network_count (url, network, value, fetched_at)
      SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[])
      ON CONFLICT (url, network) DO UPDATE SET value = excluded.value, fetched_at = excluded.fetched_at`,
    insertJob: "INSERT INTO bulk_job (id, account_id, urls_queued, urls_completed, created_at) VALUES ($1, $2, $3, 0, $4)",
    // One statement for the whole list; ids (SERIAL) follow submission order.
    insertUrls: `
      INSERT INTO bulk_url (job_id, url, count_url)
      SELECT $1, u.url, u.count_url FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS u(url, count_url, n)
      ORDER BY u.n
      ON CONFLICT (job_id, count_url) DO NOTHING`,
    bulkJob: "SELECT * FROM bulk_job WHERE id = $1 AND account_id = $2",
    bulkResults: "SELECT url, result FROM bulk_url WHERE job_id = $1 AND completed_at IS NOT NULL ORDER BY id",
    activeBulkJobs: `
      SELECT id, account_id, urls_completed, created_at FROM bulk_job
      WHERE completed_at IS NULL AND (paused_until IS NULL OR paused_until <= $1)
      ORDER BY created_at`,
    queuedBulkUrls: "SELECT id, count_url FROM bulk_url WHERE job_id = $1 AND completed_at IS NULL AND id > $2 ORDER BY id LIMIT $3",
    /**
     * One statement, so one round trip and one transaction: lock the URL while it is still queued (under
     * READ COMMITTED a second process waits for the first to commit, re-checks `completed_at IS NULL` and
     * finds nothing, so only one of them answers and counts it), reserve one query of quota, and only if
     * that succeeded store the result and advance the job ($6 NULL: reserved already in Redis, count it
     * without a limit). With the quota used up nothing changes: the
     * URL stays queued. Locks are taken in the same order everywhere (URL, usage row, job): no deadlocks.
     */
    completeBulkUrl: `
      WITH target AS MATERIALIZED (
        SELECT id FROM bulk_url WHERE id = $3 AND completed_at IS NULL FOR UPDATE
      ), reserved AS (
        INSERT INTO daily_usage (account_id, day, queries)
        SELECT $4, $5, 1 WHERE ($6::int IS NULL OR $6::int > 0) AND EXISTS (SELECT 1 FROM target)
        ON CONFLICT (account_id, day) DO UPDATE SET queries = daily_usage.queries + 1
        WHERE $6::int IS NULL OR daily_usage.queries < $6::int
        RETURNING queries
      ), completed AS (
        UPDATE bulk_url SET result = $1, completed_at = $2
        WHERE id IN (SELECT id FROM target) AND EXISTS (SELECT 1 FROM reserved)
        RETURNING id
      ), advanced AS (
        UPDATE bulk_job SET urls_completed = urls_completed + 1,
          completed_at = CASE WHEN urls_completed + 1 >= urls_queued THEN $2::bigint ELSE NULL END
        WHERE id = $7 AND EXISTS (SELECT 1 FROM completed)
        RETURNING id
      )
      SELECT (SELECT count(*) FROM target)::int AS queued, (SELECT count(*) FROM completed)::int AS completed,
             (SELECT count(*) FROM advanced)::int AS advanced`,
    pauseJobs: "UPDATE bulk_job SET paused_until = $1 WHERE account_id = $2 AND completed_at IS NULL",
    deleteExpiredJobs: "DELETE FROM bulk_job WHERE completed_at < $1 OR (completed_at IS NULL AND created_at < $2)",
  };

  /** Runs `body` in a transaction on one connection; rolls back when it throws. */
  async function transaction<T>(body: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    let broken = false;
    try {
      await client.query("BEGIN");
      const result = await body(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      try {
        await client.query("ROLLBACK");
      } catch {
        broken = true;
      }
      throw error;
    } finally {
      // A connection whose rollback failed is in an unknown state: destroy it rather than reuse it.
      client.release(broken);
    }
  }

  const toPlan = (row: PlanRow): PlanLimits => ({
    name: row.plan_name,
    dailyQuota: row.daily_quota,
    bulkBatchLimit: row.bulk_batch_limit,
    customTtlAllowed: row.custom_ttl_allowed,
  });

  const toJob = (row: JobRow): BulkJobRow => ({
    id: row.id,
    accountId: row.account_id,
    urlsQueued: row.urls_queued,
    urlsCompleted: row.urls_completed,
    createdAt: row.created_at,
    completedAt: row.completed_at,
    pausedUntil: row.paused_until,
  });

  const accounts = new AccountsListener(databaseUrl);

  const saveKnownCount = perTick(async (batch: { url: string; network: string; value: string; fetchedAt: number }[]) => {
    const latest = new Map(batch.map((c) => [`${c.network} ${c.url}`, c]));
    const rows = [...latest.entries()].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)).map(([, c]) => c);
    await query("saveKnownCounts", SQL.saveKnownCounts, [
      rows.map((c) => c.url),
      rows.map((c) => c.network),
      rows.map((c) => c.value),
      rows.map((c) => c.fetchedAt),
    ]);
    return batch.map(() => undefined);
  });

  // After close() every query fails with the pool's "ended" error, which is what a closed store means.
  const isOutage = (error: unknown) => isConnectionError(error) || (closed && error instanceof Error);
  const store: Store = {
    async ping() {
      await query("ping", SQL.ping);
    },
    async close() {
      if (closed) return;
      closed = true;
      await accounts.close();
      await pool.end();
    },

    async accountsVersion() {
      return accounts.current();
    },
    async accountByKeyHash(keyHash): Promise<AccountContext | null> {
      const row = (await query<AccountRow>("accountByKeyHash", SQL.accountByKeyHash, [keyHash])).rows[0];
      if (!row) return null;
      return {
        id: row.id,
        plan: toPlan(row),
        whitelist: { enabled: row.whitelist_enabled, domains: row.domains },
      };
    },
    async largestBulkBatchLimit() {
      return (await query<{ n: number }>("largestBulkBatchLimit", SQL.largestBulkBatchLimit)).rows[0]!.n;
    },
    async accountPlan(accountId) {
      const row = (await query<PlanRow>("accountPlan", SQL.accountPlan, [accountId])).rows[0];
      return row ? toPlan(row) : null;
    },

    async reserveQuery(accountId, day, dailyQuota) {
      const row = (await query<{ queries: number }>("reserveQuery", SQL.reserveQuery, [accountId, day, dailyQuota])).rows[0];
      return row?.queries ?? null;
    },
    async releaseQuery(accountId, day) {
      await query("releaseQuery", SQL.releaseQuery, [accountId, day]);
    },
    async addQueries(counts) {
      if (counts.length === 0) return [];
      const merged = new Map<string, { accountId: string; day: string; queries: number }>();
      for (const c of counts) {
        const row = merged.get(rowKey(c));
        if (row) row.queries += c.queries;
        else merged.set(rowKey(c), { ...c });
      }
      const sorted = [...merged.entries()].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)).map(([, c]) => c);
      const { rows } = await query<{ account_id: string; day: string; queries: number }>("addQueries", SQL.addQueries, [
        sorted.map((c) => c.accountId),
        sorted.map((c) => c.day),
        sorted.map((c) => c.queries),
      ]);
      const totals = new Map(rows.map((r) => [rowKey({ accountId: r.account_id, day: r.day }), r.queries]));
      return counts.map((c) => totals.get(rowKey(c))!);
    },
    async queriesOn(accountId, day) {
      return (await query<{ queries: number }>("queriesOn", SQL.queriesOn, [accountId, day])).rows[0]?.queries ?? 0;
    },
    async usageBetween(accountId, fromDay, toDay) {
      return (await query<{ day: string; queries: number }>("usageBetween", SQL.usageBetween, [accountId, fromDay, toDay])).rows;
    },
    async allocations(accountId) {
      const { rows } = await query<{ day: string; daily_quota: number }>("allocations", SQL.allocations, [accountId]);
      return rows.map((r) => ({ day: r.day, dailyQuota: r.daily_quota }));
    },

    async knownCount(url, network) {
      const row = (await query<{ value: string; fetched_at: number }>("knownCount", SQL.knownCount, [url, network])).rows[0];
      return row ? { value: row.value, fetchedAt: row.fetched_at } : null;
    },
    saveKnownCount(url, network, value, fetchedAt) {
      return saveKnownCount({ url, network, value, fetchedAt });
    },

    async createBulkJob(job, urls) {
      await transaction(async (client) => {
        await client.query({ name: "insertJob", text: SQL.insertJob, values: [job.id, job.accountId, urls.length, job.createdAt] });
        await client.query({
          name: "insertUrls",
          text: SQL.insertUrls,
          values: [job.id, urls.map((u) => u.url), urls.map((u) => u.countUrl)],
        });
      });
    },
    async bulkJob(id, accountId) {
      const row = (await query<JobRow>("bulkJob", SQL.bulkJob, [id, accountId])).rows[0];
      return row ? toJob(row) : null;
    },
    async bulkResults(jobId) {
      return (await query<{ url: string; result: string }>("bulkResults", SQL.bulkResults, [jobId])).rows;
    },
    async activeBulkJobs(now) {
      const { rows } = await query<{ id: string; account_id: string; urls_completed: number; created_at: number }>(
        "activeBulkJobs",
        SQL.activeBulkJobs,
        [now],
      );
      return rows.map((r) => ({ id: r.id, accountId: r.account_id, urlsCompleted: r.urls_completed, createdAt: r.created_at }));
    },
    async queuedBulkUrls(job, afterId, limit) {
      const { rows } = await query<{ id: number; count_url: string }>("queuedBulkUrls", SQL.queuedBulkUrls, [job.id, afterId, limit]);
      return rows.map((r) => ({ id: r.id, jobId: job.id, accountId: job.accountId, countUrl: r.count_url }));
    },
    async completeBulkUrl(item: QueuedBulkUrl, quota, result, now): Promise<BulkCompletion> {
      const { rows } = await query<{ queued: number; completed: number }>("completeBulkUrl", SQL.completeBulkUrl, [
        result,
        now,
        item.id,
        item.accountId,
        quota.day,
        quota.dailyQuota,
        item.jobId,
      ]);
      const row = rows[0]!;
      if (row.queued === 0) return "already_done";
      return row.completed === 1 ? "completed" : "quota_exhausted";
    },
    async pauseBulkJobs(accountId, until) {
      await query("pauseJobs", SQL.pauseJobs, [until, accountId]);
    },
    async deleteExpiredBulkJobs(completedBefore, createdBefore) {
      return (await query("deleteExpiredJobs", SQL.deleteExpiredJobs, [completedBefore, createdBefore])).rowCount ?? 0;
    },
  };
  return withOutagesTyped(store, isOutage);
}
