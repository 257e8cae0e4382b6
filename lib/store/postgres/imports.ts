import type { ImportStore } from "../imports.ts";
import { ACTIVE_COUNTS, CANCEL, IMPORT_COLUMNS, RUNNABLE, toImport, type ImportRow } from "../import-rows.ts";
import type { Sql } from "./pool.ts";

const SQL = {
  create: "INSERT INTO url_import (id, account_id, kind, source_url, status, created_at, updated_at) VALUES ($1, $2, $3, $4, 'queued', $5, $5)",
  get: `SELECT ${IMPORT_COLUMNS} FROM url_import WHERE account_id = $1 AND id = $2`,
  list: `SELECT ${IMPORT_COLUMNS} FROM url_import WHERE account_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
  claim: `
    WITH next AS (
      SELECT id FROM url_import WHERE ${RUNNABLE.replaceAll("$now", "$1")}
      ORDER BY updated_at LIMIT 1 FOR UPDATE SKIP LOCKED)
    UPDATE url_import i SET status = 'running', lease_until = $1 + $2, updated_at = $1
    FROM next WHERE i.id = next.id
    RETURNING ${IMPORT_COLUMNS.split(", ").map((c) => `i.${c}`).join(", ")}`,
  active: ACTIVE_COUNTS.replace("$account", "$1").replace("COUNT(*) FILTER (WHERE status IN ('queued', 'running')) AS pending", "COUNT(*) FILTER (WHERE status IN ('queued', 'running'))::int AS pending").replace("next_read_at IS NOT NULL)) AS feeds", "next_read_at IS NOT NULL))::int AS feeds"),
  cancel: CANCEL.replace("$account", "$1").replace("$id", "$2").replace("$at", "$3"),
  finish: `
    UPDATE url_import SET status = $1, urls_found = $2, added = $3, error = $4, next_read_at = $5, updated_at = $6, lease_until = NULL
    WHERE id = $7`,
};

export function postgresImports(sql: Sql): ImportStore {
  return {
    async create({ id, accountId, kind, sourceUrl, at }) {
      await sql.query("createImport", SQL.create, [id, accountId, kind, sourceUrl, at]);
    },
    async get(accountId, id) {
      const row = (await sql.query<ImportRow>("getImport", SQL.get, [accountId, id])).rows[0];
      return row ? toImport(row) : null;
    },
    async list(accountId, limit) {
      return (await sql.query<ImportRow>("listImports", SQL.list, [accountId, limit])).rows.map(toImport);
    },
    async claim(now, leaseMs) {
      const row = (await sql.query<ImportRow>("claimImport", SQL.claim, [now, leaseMs])).rows[0];
      return row ? toImport(row) : null;
    },
    async activeCounts(accountId) {
      return (await sql.query<{ pending: number; feeds: number }>("activeImports", SQL.active, [accountId])).rows[0]!;
    },
    async cancel(accountId, id, at) {
      return ((await sql.query("cancelImport", SQL.cancel, [accountId, id, at])).rowCount ?? 0) > 0;
    },
    async finish(id, outcome, at) {
      await sql.query("finishImport", SQL.finish, [outcome.status, outcome.urlsFound, outcome.added, outcome.error, outcome.nextReadAt, at, id]);
    },
  };
}
