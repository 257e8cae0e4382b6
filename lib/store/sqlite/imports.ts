import type Database from "better-sqlite3";
import type { ImportStore, UrlImport } from "../imports.ts";
import { ACTIVE_COUNTS, CANCEL, IMPORT_COLUMNS, RUNNABLE, toImport, type ImportRow } from "../import-rows.ts";

export function sqliteImports(db: Database.Database): ImportStore {
  const statements = {
    create: db.prepare<[string, string, string, string, number, number]>(
      "INSERT INTO url_import (id, account_id, kind, source_url, status, created_at, updated_at) VALUES (?, ?, ?, ?, 'queued', ?, ?)",
    ),
    get: db.prepare<[string, string], ImportRow>(`SELECT ${IMPORT_COLUMNS} FROM url_import WHERE account_id = ? AND id = ?`),
    list: db.prepare<[string, number], ImportRow>(
      `SELECT ${IMPORT_COLUMNS} FROM url_import WHERE account_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`,
    ),
    next: db.prepare<{ now: number }, ImportRow>(
      `SELECT ${IMPORT_COLUMNS} FROM url_import WHERE ${RUNNABLE.replaceAll("$now", "@now")} ORDER BY updated_at LIMIT 1`,
    ),
    lease: db.prepare<[number, number, string]>("UPDATE url_import SET status = 'running', lease_until = ?, updated_at = ? WHERE id = ?"),
    finish: db.prepare<[string, number, number, string | null, number | null, number, string]>(`
      UPDATE url_import SET status = ?, urls_found = ?, added = ?, error = ?, next_read_at = ?, updated_at = ?, lease_until = NULL
      WHERE id = ?`),
    active: db.prepare<{ account: string }, { pending: number; feeds: number }>(ACTIVE_COUNTS.replaceAll("$account", "@account")),
    cancel: db.prepare<{ account: string; id: string; at: number }>(
      CANCEL.replaceAll("$account", "@account").replaceAll("$id", "@id").replaceAll("$at", "@at"),
    ),
  };
  const claim = db.transaction((now: number, leaseMs: number): UrlImport | null => {
    const row = statements.next.get({ now });
    if (!row) return null;
    statements.lease.run(now + leaseMs, now, row.id);
    return { ...toImport(row), status: "running", updatedAt: now };
  });
  return {
    async create({ id, accountId, kind, sourceUrl, at }) {
      statements.create.run(id, accountId, kind, sourceUrl, at, at);
    },
    async get(accountId, id) {
      const row = statements.get.get(accountId, id);
      return row ? toImport(row) : null;
    },
    async list(accountId, limit) {
      return statements.list.all(accountId, limit).map(toImport);
    },
    async claim(now, leaseMs) {
      return claim.immediate(now, leaseMs);
    },
    async activeCounts(accountId) {
      return statements.active.get({ account: accountId })!;
    },
    async cancel(accountId, id, at) {
      return statements.cancel.run({ account: accountId, id, at }).changes > 0;
    },
    async finish(id, outcome, at) {
      statements.finish.run(outcome.status, outcome.urlsFound, outcome.added, outcome.error, outcome.nextReadAt, at, id);
    },
  };
}
