import type { ImportStore } from "../imports.ts";
import { ACTIVE_COUNTS, CANCEL, CLAIM_SET, FINISH, IMPORT_COLUMNS, PROGRESS, RELEASE, RUNNABLE, toImport, type ImportRow } from "../import-rows.ts";
import type { Sql } from "./pool.ts";

/** The shared statements' `$name` parameters as PostgreSQL's `$1`, `$2`… in the order of `names`. */
function numbered(text: string, names: readonly string[]): string {
  return text.replace(/\$([A-Za-z]\w*)/g, (_, name: string) => {
    const at = names.indexOf(name);
    if (at === -1) throw new Error(`parameter $${name} has no position`);
    return `$${at + 1}`;
  });
}

const PROGRESS_PARAMS = ["id", "token", "at", "urlsFound", "added", "notAdded", "files"] as const;
const FINISH_PARAMS = [...PROGRESS_PARAMS, "status", "stopped", "error", "nextReadAt"] as const;

const SQL = {
  create: "INSERT INTO url_import (id, account_id, kind, source_url, status, created_at, updated_at) VALUES ($1, $2, $3, $4, 'queued', $5, $5)",
  get: `SELECT ${IMPORT_COLUMNS} FROM url_import WHERE account_id = $1 AND id = $2`,
  list: `SELECT ${IMPORT_COLUMNS} FROM url_import WHERE account_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
  // Claims take turns (a transaction-wide lock): "one running import per account" holds across workers.
  claimLock: "SELECT pg_advisory_xact_lock(hashtext('sharecount:url_import:claim'))",
  accountLock: "SELECT pg_advisory_xact_lock(hashtext('sharecount:url_import:' || $1))",
  next: numbered(`SELECT id FROM url_import WHERE ${RUNNABLE} ORDER BY updated_at LIMIT 1 FOR UPDATE`, ["now"]),
  lease: numbered(`UPDATE url_import SET ${CLAIM_SET} WHERE id = $id RETURNING ${IMPORT_COLUMNS}`, ["id", "now", "leaseUntil", "token"]),
  progress: numbered(PROGRESS, PROGRESS_PARAMS),
  finish: numbered(FINISH, FINISH_PARAMS),
  release: numbered(RELEASE, ["id", "token", "at"]),
  active: numbered(ACTIVE_COUNTS, ["account"])
    .replace("COUNT(*) FILTER (WHERE status IN ('queued', 'running')) AS pending", "COUNT(*) FILTER (WHERE status IN ('queued', 'running'))::int AS pending")
    .replace("next_read_at IS NOT NULL)) AS feeds", "next_read_at IS NOT NULL))::int AS feeds"),
  cancel: numbered(CANCEL, ["account", "id", "at"]),
};

export function postgresImports(sql: Sql): ImportStore {
  return {
    async create({ id, accountId, kind, sourceUrl, at }, caps) {
      return sql.transaction(async (client) => {
        // One account's requests take turns: the count and the insert are one step against the caps.
        await client.query(SQL.accountLock, [accountId]);
        const active = (await client.query<{ pending: number; feeds: number }>(SQL.active, [accountId])).rows[0]!;
        if (active.pending >= caps.pending) return "pending";
        if (kind === "feed" && active.feeds >= caps.feeds) return "feeds";
        await client.query(SQL.create, [id, accountId, kind, sourceUrl, at]);
        return null;
      });
    },
    async get(accountId, id) {
      const row = (await sql.query<ImportRow>("getImport", SQL.get, [accountId, id])).rows[0];
      return row ? toImport(row) : null;
    },
    async list(accountId, limit) {
      return (await sql.query<ImportRow>("listImports", SQL.list, [accountId, limit])).rows.map(toImport);
    },
    async claim(now, leaseMs, token) {
      return sql.transaction(async (client) => {
        await client.query(SQL.claimLock);
        const next = (await client.query<{ id: string }>(SQL.next, [now])).rows[0];
        if (!next) return null;
        const row = (await client.query<ImportRow>(SQL.lease, [next.id, now, now + leaseMs, token])).rows[0]!;
        return toImport(row);
      });
    },
    async progress(id, token, p, at) {
      const result = await sql.query("importProgress", SQL.progress, [id, token, at, p.urlsFound, p.added, JSON.stringify(p.notAdded), p.files]);
      return (result.rowCount ?? 0) > 0;
    },
    async finish(id, token, o, at) {
      await sql.query("finishImport", SQL.finish, [
        ...[id, token, at, o.urlsFound, o.added, JSON.stringify(o.notAdded), o.files],
        ...[o.status, o.stopped, o.error, o.nextReadAt],
      ]);
    },
    async release(id, token, at) {
      await sql.query("releaseImport", SQL.release, [id, token, at]);
    },
    async cancel(accountId, id, at) {
      return ((await sql.query("cancelImport", SQL.cancel, [accountId, id, at])).rowCount ?? 0) > 0;
    },
  };
}
