import type Database from "better-sqlite3";
import type { BulkCompletion, BulkStore, CountedItem, QueuedBulkUrl } from "../bulk.ts";
import { networkListOf } from "../accounts.ts";
import { networksColumn, resultColumn, toCountedUrl, toJob, toResult, type CountedUrlRow, type JobRow } from "../bulk-rows.ts";
import type { Reservation } from "../usage.ts";

/** Bulk jobs and URLs; a URL's query is counted through `reserveIn` (the usage rows) in the same transaction. */
export function sqliteBulk(db: Database.Database, reserveIn: (r: Reservation) => number | null): BulkStore {
  const statements = {
    insertJob: db.prepare<[string, string, number, number, string | null, string | null, string | null]>(
      "INSERT INTO bulk_job (id, account_id, urls_queued, urls_completed, created_at, networks, name, request_id) VALUES (?, ?, ?, 0, ?, ?, ?, ?)",
    ),
    networksOf: db.prepare<[string], { networks: string | null }>("SELECT networks FROM bulk_job WHERE id = ?"),
    insertUrl: db.prepare<[string, string, string], { id: number }>(
      "INSERT INTO bulk_url (job_id, url, count_url) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING id",
    ),
    job: db.prepare<[string, string], JobRow>("SELECT * FROM bulk_job WHERE id = ? AND account_id = ?"),
    jobsOf: db.prepare<[string], JobRow>("SELECT * FROM bulk_job WHERE account_id = ? ORDER BY created_at DESC"),
    results: db.prepare<[string], { url: string; result: string }>(
      "SELECT url, result FROM bulk_url WHERE job_id = ? AND completed_at IS NOT NULL ORDER BY id",
    ),
    resultsAfter: db.prepare<[string, number, number], CountedUrlRow>(
      "SELECT id, url, result, completed_at FROM bulk_url WHERE job_id = ? AND completed_at IS NOT NULL AND id > ? ORDER BY id LIMIT ?",
    ),
    waiting: db.prepare<[], { n: number }>("SELECT COALESCE(SUM(urls_queued - urls_completed), 0) AS n FROM bulk_job WHERE completed_at IS NULL"),
    active: db.prepare<[number], { id: string; account_id: string; urls_completed: number; created_at: number; request_id: string | null }>(`
      SELECT id, account_id, urls_completed, created_at, request_id FROM bulk_job
      WHERE completed_at IS NULL AND (paused_until IS NULL OR paused_until <= ?)
      ORDER BY created_at`),
    queued: db.prepare<[string, number, number], { id: number; count_url: string }>(
      "SELECT id, count_url FROM bulk_url WHERE job_id = ? AND completed_at IS NULL AND id > ? ORDER BY id LIMIT ?",
    ),
    completeUrl: db.prepare<[string, number, number]>(
      "UPDATE bulk_url SET result = ?, completed_at = ? WHERE id = ? AND completed_at IS NULL",
    ),
    advanceJob: db.prepare<[number, string]>(`
      UPDATE bulk_job SET urls_completed = urls_completed + 1,
        completed_at = CASE WHEN urls_completed + 1 >= urls_queued THEN ? ELSE NULL END
      WHERE id = ?`),
    pause: db.prepare<[number, string]>("UPDATE bulk_job SET paused_until = ? WHERE account_id = ? AND completed_at IS NULL"),
    resumeAccount: db.prepare<[string]>("UPDATE bulk_job SET paused_until = NULL WHERE account_id = ? AND completed_at IS NULL"),
    resumePlan: db.prepare<[string]>(`
      UPDATE bulk_job SET paused_until = NULL
      WHERE completed_at IS NULL AND account_id IN (SELECT id FROM account WHERE plan_name = ?)`),
    importJob: db.prepare<[string, string, number, number, number, number, string | null]>(
      "INSERT INTO bulk_job (id, account_id, urls_queued, urls_completed, created_at, completed_at, name) VALUES (?, ?, ?, ?, ?, ?, ?)",
    ),
    importUrl: db.prepare<[string, string, string, string, number]>(
      "INSERT INTO bulk_url (job_id, url, count_url, result, completed_at) VALUES (?, ?, ?, ?, ?)",
    ),
    deleteExpired: db.prepare<[number, number]>(
      "DELETE FROM bulk_job WHERE completed_at < ? OR (completed_at IS NULL AND created_at < ?)",
    ),
  };

  class QuotaExhausted extends Error {}

  const create = db.transaction(
    (job: Parameters<BulkStore["create"]>[0], urls: { url: string; countUrl: string }[]): QueuedBulkUrl[] => {
      const requestId = job.requestId ?? null;
      statements.insertJob.run(job.id, job.accountId, urls.length, job.createdAt, networksColumn(job.networks), job.name ?? null, requestId);
      const queued: QueuedBulkUrl[] = [];
      for (const u of urls) {
        const row = statements.insertUrl.get(job.id, u.url, u.countUrl);
        if (row) queued.push({ id: row.id, jobId: job.id, accountId: job.accountId, countUrl: u.countUrl, requestId });
      }
      return queued;
    },
  );

  const importCompleted = db.transaction(
    (job: Parameters<BulkStore["importCompleted"]>[0], results: Parameters<BulkStore["importCompleted"]>[1]) => {
      statements.importJob.run(job.id, job.accountId, results.length, results.length, job.createdAt, job.completedAt, job.name ?? null);
      for (const r of results) statements.importUrl.run(job.id, r.url, r.countUrl, resultColumn({ counts: r.counts }), r.completedAt);
    },
  );

  // Nested in completeAll, so a savepoint: a URL the quota has no room for is rolled back alone.
  const completeOne = db.transaction((item: QueuedBulkUrl, quota: { day: string; dailyQuota: number }, result: string, now: number): BulkCompletion => {
    if (statements.completeUrl.run(result, now, item.id).changes === 0) return "already_done";
    if (reserveIn({ accountId: item.accountId, day: quota.day, queries: 1, dailyQuota: quota.dailyQuota }) === null) {
      throw new QuotaExhausted();
    }
    statements.advanceJob.run(now, item.jobId);
    return "completed";
  });
  const completeAll = db.transaction((counted: readonly CountedItem[], quota: { day: string; dailyQuota: number }, now: number) =>
    counted.map(({ item, result }): BulkCompletion => {
      try {
        return completeOne(item, quota, resultColumn(result), now);
      } catch (error) {
        if (error instanceof QuotaExhausted) return "quota_exhausted";
        throw error;
      }
    }),
  );

  return {
    async create(job, urls) {
      return create(job, urls);
    },
    async importCompleted(job, results) {
      importCompleted(job, results);
    },
    async job(id, accountId) {
      const row = statements.job.get(id, accountId);
      return row ? toJob(row) : null;
    },
    async jobsOf(accountId) {
      return statements.jobsOf.all(accountId).map(toJob);
    },
    async results(jobId) {
      return statements.results.all(jobId).map(toResult);
    },
    async resultsAfter(jobId, afterId, limit) {
      return statements.resultsAfter.all(jobId, afterId, limit).map(toCountedUrl);
    },
    async waitingUrls() {
      return statements.waiting.get()!.n;
    },
    async active(now) {
      return statements.active
        .all(now)
        .map((r) => ({ id: r.id, accountId: r.account_id, urlsCompleted: r.urls_completed, createdAt: r.created_at, requestId: r.request_id }));
    },
    async queued(job, afterId, limit) {
      return statements.queued
        .all(job.id, afterId, limit)
        .map((r) => ({ id: r.id, jobId: job.id, accountId: job.accountId, countUrl: r.count_url, requestId: job.requestId ?? null }));
    },
    async networksOf(jobId) {
      const row = statements.networksOf.get(jobId);
      return row ? networkListOf(row.networks) : undefined;
    },
    async complete(counted, quota, now) {
      return completeAll(counted, quota, now);
    },
    async pause(accountId, until) {
      statements.pause.run(until, accountId);
    },
    async resume(whose) {
      if ("accountId" in whose) statements.resumeAccount.run(whose.accountId);
      else statements.resumePlan.run(whose.planName);
    },
    async deleteExpired(completedBefore, createdBefore) {
      return statements.deleteExpired.run(completedBefore, createdBefore).changes;
    },
  };
}
