import Database from "better-sqlite3";
import { REQUEST_COLUMNS, toRequestRow, type RequestRecord } from "../request-rows.ts";
import type { RequestLogRow, RequestLogStore } from "../requests.ts";

type ListParams = {
  account: string;
  statusMin: number | null;
  statusMax: number | null;
  errorType: string | null;
  keyId: string | null;
  path: string | null;
  from: number | null;
  to: number | null;
  beforeTime: number | null;
  beforeId: string | null;
  limit: number;
};

export function sqliteRequests(db: Database.Database): RequestLogStore {
  const statements = {
    insert: db.prepare(`INSERT INTO request_log (${REQUEST_COLUMNS}) VALUES (${Array(14).fill("?").join(", ")})`),
    // After a batch failed on its foreign key: the account was deleted since its request, and its rows are skipped.
    insertIfAccount: db.prepare(
      `INSERT INTO request_log (${REQUEST_COLUMNS})
       SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM account WHERE id = ?)`,
    ),
    list: db.prepare<ListParams, RequestRecord>(
      `SELECT ${REQUEST_COLUMNS} FROM request_log
       WHERE account_id = $account
         AND ($statusMin IS NULL OR status BETWEEN $statusMin AND $statusMax)
         AND ($errorType IS NULL OR error_type = $errorType)
         AND ($keyId IS NULL OR key_id = $keyId)
         AND ($path IS NULL OR path = $path)
         AND ($from IS NULL OR time >= $from)
         AND ($to IS NULL OR time < $to)
         AND ($beforeTime IS NULL OR time < $beforeTime OR (time = $beforeTime AND id < $beforeId))
       ORDER BY time DESC, id DESC LIMIT $limit`,
    ),
    get: db.prepare<[string, string], RequestRecord>(`SELECT ${REQUEST_COLUMNS} FROM request_log WHERE account_id = ? AND id = ?`),
    prune: db.prepare<[string, number]>(
      "DELETE FROM request_log WHERE id IN (SELECT id FROM request_log WHERE id < ? ORDER BY id LIMIT ?)",
    ),
  };
  const insert = db.transaction((rows: readonly RequestLogRow[]) => {
    for (const r of rows) {
      statements.insert.run(r.id, r.accountId, r.time, r.keyId, r.method, r.path, r.query, r.status, r.errorType, r.durationMs, r.url, r.quotaSpent, r.ip, r.userAgent);
    }
  });
  const insertIfAccount = db.transaction((rows: readonly RequestLogRow[]) => {
    for (const r of rows) {
      statements.insertIfAccount.run(
        r.id, r.accountId, r.time, r.keyId, r.method, r.path, r.query, r.status, r.errorType, r.durationMs, r.url, r.quotaSpent, r.ip, r.userAgent, r.accountId,
      );
    }
  });
  return {
    async insert(rows) {
      if (rows.length === 0) return;
      try {
        insert(rows);
      } catch (error) {
        // Checking each row's account up front would cost every batch a lookup per row for what is rare.
        if (!(error instanceof Database.SqliteError && error.code === "SQLITE_CONSTRAINT_FOREIGNKEY")) throw error;
        insertIfAccount(rows);
      }
    },
    async list(accountId, filter, limit, before) {
      return statements.list
        .all({
          account: accountId,
          statusMin: filter.status?.min ?? null,
          statusMax: filter.status?.max ?? null,
          errorType: filter.errorType ?? null,
          keyId: filter.keyId ?? null,
          path: filter.path ?? null,
          from: filter.from ?? null,
          to: filter.to ?? null,
          beforeTime: before?.time ?? null,
          beforeId: before?.id ?? null,
          limit,
        })
        .map(toRequestRow);
    },
    async get(accountId, id) {
      const row = statements.get.get(accountId, id);
      return row ? toRequestRow(row) : null;
    },
    async prune(idBelow, limit) {
      return statements.prune.run(idBelow, limit).changes;
    },
  };
}
