import type Database from "better-sqlite3";
import type { ImportCaps, ImportStore, UrlImport } from "../imports.ts";
import { ACTIVE_COUNTS, CANCEL, CLAIM_SET, FINISH, IMPORT_COLUMNS, PROGRESS, RELEASE, RUNNABLE, toImport, type ImportRow } from "../import-rows.ts";

/** The shared statements name their parameters `$name`, which better-sqlite3 binds from an object's keys. */
export function sqliteImports(db: Database.Database): ImportStore {
  const statements = {
    create: db.prepare<[string, string, string, string, number, number]>(
      "INSERT INTO url_import (id, account_id, kind, source_url, status, created_at, updated_at) VALUES (?, ?, ?, ?, 'queued', ?, ?)",
    ),
    get: db.prepare<[string, string], ImportRow>(`SELECT ${IMPORT_COLUMNS} FROM url_import WHERE account_id = ? AND id = ?`),
    list: db.prepare<[string, number], ImportRow>(
      `SELECT ${IMPORT_COLUMNS} FROM url_import WHERE account_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`,
    ),
    next: db.prepare<{ now: number }, { id: string }>(`SELECT id FROM url_import WHERE ${RUNNABLE} ORDER BY updated_at LIMIT 1`),
    lease: db.prepare<{ id: string; now: number; leaseUntil: number; token: string }>(`UPDATE url_import SET ${CLAIM_SET} WHERE id = $id`),
    claimed: db.prepare<[string], ImportRow>(`SELECT ${IMPORT_COLUMNS} FROM url_import WHERE id = ?`),
    progress: db.prepare(PROGRESS),
    finish: db.prepare(FINISH),
    release: db.prepare(RELEASE),
    active: db.prepare<{ account: string }, { pending: number; feeds: number }>(ACTIVE_COUNTS),
    cancel: db.prepare<{ account: string; id: string; at: number }>(CANCEL),
  };
  const create = db.transaction((entry: Parameters<ImportStore["create"]>[0], caps: ImportCaps): keyof ImportCaps | null => {
    const active = statements.active.get({ account: entry.accountId })!;
    if (active.pending >= caps.pending) return "pending";
    if (entry.kind === "feed" && active.feeds >= caps.feeds) return "feeds";
    statements.create.run(entry.id, entry.accountId, entry.kind, entry.sourceUrl, entry.at, entry.at);
    return null;
  });
  const claim = db.transaction((now: number, leaseMs: number, token: string): UrlImport | null => {
    const next = statements.next.get({ now });
    if (!next) return null;
    statements.lease.run({ id: next.id, now, leaseUntil: now + leaseMs, token });
    return toImport(statements.claimed.get(next.id)!);
  });
  return {
    async create(entry, caps) {
      return create.immediate(entry, caps);
    },
    async get(accountId, id) {
      const row = statements.get.get(accountId, id);
      return row ? toImport(row) : null;
    },
    async list(accountId, limit) {
      return statements.list.all(accountId, limit).map(toImport);
    },
    async claim(now, leaseMs, token) {
      return claim.immediate(now, leaseMs, token);
    },
    async progress(id, token, progress, at) {
      const { urlsFound, added, notAdded, files } = progress;
      return statements.progress.run({ id, token, at, urlsFound, added, notAdded: JSON.stringify(notAdded), files }).changes > 0;
    },
    async finish(id, token, outcome, at) {
      const { status, urlsFound, added, notAdded, files, stopped, error, nextReadAt } = outcome;
      statements.finish.run({ id, token, at, status, urlsFound, added, notAdded: JSON.stringify(notAdded), files, stopped, error, nextReadAt });
    },
    async release(id, token, at) {
      statements.release.run({ id, token, at });
    },
    async cancel(accountId, id, at) {
      return statements.cancel.run({ account: accountId, id, at }).changes > 0;
    },
  };
}
