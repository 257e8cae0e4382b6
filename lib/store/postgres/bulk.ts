import type { BulkCompletion, BulkStore, CountedItem } from "../bulk.ts";
import { networkListOf } from "../accounts.ts";
import { networksColumn, resultColumn, toCountedUrl, toJob, toResult, type CountedUrlRow, type JobRow } from "../bulk-rows.ts";
import type { Sql } from "./pool.ts";

const SQL = {
  insertJob: "INSERT INTO bulk_job (id, account_id, urls_queued, urls_completed, created_at, networks, name, request_id) VALUES ($1, $2, $3, 0, $4, $5, $6, $7)",
  networksOf: "SELECT networks FROM bulk_job WHERE id = $1",
  // One statement for the whole list; ids (SERIAL) follow submission order.
  insertUrls: `
    INSERT INTO bulk_url (job_id, url, count_url)
    SELECT $1, u.url, u.count_url FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS u(url, count_url, n)
    ORDER BY u.n
    ON CONFLICT (job_id, count_url) DO NOTHING
    RETURNING id, count_url`,
  job: "SELECT * FROM bulk_job WHERE id = $1 AND account_id = $2",
  jobsOf: "SELECT * FROM bulk_job WHERE account_id = $1 ORDER BY created_at DESC",
  results: "SELECT url, result FROM bulk_url WHERE job_id = $1 AND completed_at IS NOT NULL ORDER BY id",
  resultsAfter: "SELECT id, url, result, completed_at FROM bulk_url WHERE job_id = $1 AND completed_at IS NOT NULL AND id > $2 ORDER BY id LIMIT $3",
  waiting: "SELECT COALESCE(SUM(urls_queued - urls_completed), 0)::int AS n FROM bulk_job WHERE completed_at IS NULL",
  active: `
    SELECT id, account_id, urls_completed, created_at, request_id FROM bulk_job
    WHERE completed_at IS NULL AND (paused_until IS NULL OR paused_until <= $1)
    ORDER BY created_at`,
  queued: "SELECT id, count_url FROM bulk_url WHERE job_id = $1 AND completed_at IS NULL AND id > $2 ORDER BY id LIMIT $3",
  // One statement: the function (migration 0022) locks, reserves, stores and advances in one transaction.
  complete: "SELECT open_ids, granted FROM sharecount_complete_bulk_urls($1::int[], $2::json, $3, $4, $5::int, $6::bigint)",
  pause: "UPDATE bulk_job SET paused_until = $1 WHERE account_id = $2 AND completed_at IS NULL",
  resumeAccount: "UPDATE bulk_job SET paused_until = NULL WHERE account_id = $1 AND completed_at IS NULL",
  resumePlan: `
    UPDATE bulk_job SET paused_until = NULL
    WHERE completed_at IS NULL AND account_id IN (SELECT id FROM account WHERE plan_name = $1)`,
  importJob: `
    INSERT INTO bulk_job (id, account_id, urls_queued, urls_completed, created_at, completed_at, name) VALUES ($1, $2, $3, $3, $4, $5, $6)`,
  importUrls: `
    INSERT INTO bulk_url (job_id, url, count_url, result, completed_at)
    SELECT $1, u.url, u.count_url, u.result, u.completed_at
    FROM unnest($2::text[], $3::text[], $4::text[], $5::bigint[]) WITH ORDINALITY AS u(url, count_url, result, completed_at, n)
    ORDER BY u.n`,
  deleteExpired: "DELETE FROM bulk_job WHERE completed_at < $1 OR (completed_at IS NULL AND created_at < $2)",
};

export function postgresBulk(sql: Sql): BulkStore {
  return {
    async create(job, urls) {
      const rows = await sql.transaction(async (client) => {
        await client.query({ name: "insertJob", text: SQL.insertJob, values: [job.id, job.accountId, urls.length, job.createdAt, networksColumn(job.networks), job.name ?? null, job.requestId ?? null] });
        const inserted = await client.query<{ id: number; count_url: string }>({
          name: "insertUrls",
          text: SQL.insertUrls,
          values: [job.id, urls.map((u) => u.url), urls.map((u) => u.countUrl)],
        });
        return inserted.rows;
      });
      return rows
        .sort((x, y) => x.id - y.id)
        .map((r) => ({ id: r.id, jobId: job.id, accountId: job.accountId, countUrl: r.count_url, requestId: job.requestId ?? null }));
    },
    async importCompleted(job, results) {
      await sql.transaction(async (client) => {
        await client.query({
          name: "importBulkJob",
          text: SQL.importJob,
          values: [job.id, job.accountId, results.length, job.createdAt, job.completedAt, job.name ?? null],
        });
        await client.query({
          name: "importBulkUrls",
          text: SQL.importUrls,
          values: [
            job.id,
            results.map((r) => r.url),
            results.map((r) => r.countUrl),
            results.map((r) => resultColumn({ counts: r.counts })),
            results.map((r) => r.completedAt),
          ],
        });
      });
    },
    async job(id, accountId) {
      const row = (await sql.query<JobRow>("bulkJob", SQL.job, [id, accountId])).rows[0];
      return row ? toJob(row) : null;
    },
    async jobsOf(accountId) {
      return (await sql.query<JobRow>("bulkJobsOf", SQL.jobsOf, [accountId])).rows.map(toJob);
    },
    async results(jobId) {
      const { rows } = await sql.query<{ url: string; result: string }>("bulkResults", SQL.results, [jobId]);
      return rows.map(toResult);
    },
    async resultsAfter(jobId, afterId, limit) {
      const { rows } = await sql.query<CountedUrlRow>("bulkResultsAfter", SQL.resultsAfter, [jobId, afterId, limit]);
      return rows.map(toCountedUrl);
    },
    async waitingUrls() {
      return (await sql.query<{ n: number }>("waitingBulkUrls", SQL.waiting, [])).rows[0]!.n;
    },
    async active(now) {
      const { rows } = await sql.query<{ id: string; account_id: string; urls_completed: number; created_at: number; request_id: string | null }>(
        "activeBulkJobs",
        SQL.active,
        [now],
      );
      return rows.map((r) => ({ id: r.id, accountId: r.account_id, urlsCompleted: r.urls_completed, createdAt: r.created_at, requestId: r.request_id }));
    },
    async queued(job, afterId, limit) {
      const { rows } = await sql.query<{ id: number; count_url: string }>("queuedBulkUrls", SQL.queued, [job.id, afterId, limit]);
      return rows.map((r) => ({ id: r.id, jobId: job.id, accountId: job.accountId, countUrl: r.count_url, requestId: job.requestId ?? null }));
    },
    async networksOf(jobId) {
      const row = (await sql.query<{ networks: string | null }>("bulkJobNetworks", SQL.networksOf, [jobId])).rows[0];
      return row ? networkListOf(row.networks) : undefined;
    },
    async complete(counted, quota, now) {
      if (counted.length === 0) return [];
      const accountId = counted[0]!.item.accountId;
      if (counted.some(({ item }) => item.accountId !== accountId)) throw new Error("bulk URLs of one account at a time");
      const { rows } = await sql.query<{ open_ids: number[]; granted: number | null }>("completeBulkUrls", SQL.complete, [
        counted.map(({ item }) => item.id),
        JSON.stringify(counted.map(({ result }) => resultColumn(result))),
        accountId,
        quota.day,
        quota.dailyQuota,
        now,
      ]);
      return outcomesOf(counted, new Set(rows[0]!.open_ids), rows[0]!.granted ?? 0);
    },
    async pause(accountId, until) {
      await sql.query("pauseBulkJobs", SQL.pause, [until, accountId]);
    },
    async resume(whose) {
      if ("accountId" in whose) await sql.query("resumeAccountJobs", SQL.resumeAccount, [whose.accountId]);
      else await sql.query("resumePlanJobs", SQL.resumePlan, [whose.planName]);
    },
    async deleteExpired(completedBefore, createdBefore) {
      return (await sql.query("deleteExpiredJobs", SQL.deleteExpired, [completedBefore, createdBefore])).rowCount ?? 0;
    },
  };
}

/** What became of each URL, as the function decided: the first `granted` open URLs, each once, were stored. */
function outcomesOf(counted: readonly CountedItem[], open: Set<number>, granted: number): BulkCompletion[] {
  let left = granted;
  return counted.map(({ item }): BulkCompletion => {
    // A URL listed twice is stored once.
    if (!open.has(item.id)) return "already_done";
    if (left === 0) return "quota_exhausted";
    open.delete(item.id);
    left--;
    return "completed";
  });
}
