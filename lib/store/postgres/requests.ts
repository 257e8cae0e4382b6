import { REQUEST_COLUMNS, toRequestRow, type RequestRecord } from "../request-rows.ts";
import type { RequestLogStore } from "../requests.ts";
import type { Sql } from "./pool.ts";

const LIST = `SELECT ${REQUEST_COLUMNS} FROM request_log
  WHERE account_id = $1
    AND ($2::int IS NULL OR status BETWEEN $2 AND $3)
    AND ($4::text IS NULL OR error_type = $4)
    AND ($5::text IS NULL OR key_id = $5)
    AND ($6::text IS NULL OR path = $6)
    AND ($7::bigint IS NULL OR time >= $7)
    AND ($8::bigint IS NULL OR time < $8)
    AND ($9::bigint IS NULL OR (time, id) < ($9, $10::text))
  ORDER BY time DESC, id DESC LIMIT $11`;

/** One statement per batch: the rows travel as one array per column. */
const INSERT = `INSERT INTO request_log (${REQUEST_COLUMNS})
  SELECT r.* FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[],
    $9::text[], $10::int[], $11::text[], $12::int[], $13::text[], $14::text[])
    AS r(id, account_id, time, key_id, method, path, query, status, error_type, duration_ms, url, quota_spent, ip, user_agent)
  -- The account may have been deleted since its request: its rows are skipped, not the batch.
  WHERE EXISTS (SELECT 1 FROM account a WHERE a.id = r.account_id)`;

export function postgresRequests(sql: Sql): RequestLogStore {
  return {
    async insert(rows) {
      if (rows.length === 0) return;
      const columns: unknown[][] = Array.from({ length: 14 }, () => new Array(rows.length));
      rows.forEach((r, i) => {
        const values = [r.id, r.accountId, r.time, r.keyId, r.method, r.path, r.query, r.status, r.errorType, r.durationMs, r.url, r.quotaSpent, r.ip, r.userAgent];
        for (let c = 0; c < values.length; c++) columns[c]![i] = values[c];
      });
      await sql.query("request_log_insert", INSERT, columns);
    },
    async list(accountId, filter, limit, before) {
      const { rows } = await sql.query<RequestRecord>("request_log_list", LIST, [
        accountId,
        filter.status?.min ?? null,
        filter.status?.max ?? null,
        filter.errorType ?? null,
        filter.keyId ?? null,
        filter.path ?? null,
        filter.from ?? null,
        filter.to ?? null,
        before?.time ?? null,
        before?.id ?? null,
        limit,
      ]);
      return rows.map(toRequestRow);
    },
    async get(accountId, id) {
      const { rows } = await sql.query<RequestRecord>(
        "request_log_get",
        `SELECT ${REQUEST_COLUMNS} FROM request_log WHERE account_id = $1 AND id = $2`,
        [accountId, id],
      );
      return rows[0] ? toRequestRow(rows[0]) : null;
    },
    async prune(idBelow, limit) {
      const { rowCount } = await sql.query(
        "request_log_prune",
        "DELETE FROM request_log WHERE id IN (SELECT id FROM request_log WHERE id < $1 ORDER BY id LIMIT $2)",
        [idBelow, limit],
      );
      return rowCount ?? 0;
    },
  };
}
