import { CHUNK_SPAN_MS, chunkBounds, ChunkMerger, chunkRows, foldKeyHours, idBefore, idTime, toChunks, type ChunkRead, type ChunkRecord } from "../request-chunks.ts";
import type { RequestLogStore } from "../requests.ts";
import type { Sql } from "./pool.ts";

/** One statement per batch: the chunks travel as one array per column. */
const INSERT = `INSERT INTO request_log_chunk (id, account_id, first_id, minute, rows, errors, keys, data)
  SELECT c.* FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::int[], $6::int[], $7::text[], $8::text[])
    AS c(id, account_id, first_id, minute, rows, errors, keys, data)
  -- The account may have been deleted since its requests: its chunk is skipped, not the batch.
  WHERE EXISTS (SELECT 1 FROM account a WHERE a.id = c.account_id)`;

/** Chunks of a list read per round trip: most pages need one. */
const LIST_PAGE = 20;
const LIST = `SELECT id, account_id, minute, rows, errors, keys, data FROM request_log_chunk
  WHERE account_id = $1 AND ($2::text IS NULL OR id >= $2) AND ($3::text IS NULL OR id < $3)
    AND ($4::text IS NULL OR first_id < $4)
  ORDER BY id DESC LIMIT ${LIST_PAGE}`;

/** The request log in chunks (see request-chunks.ts). */
export function postgresRequests(sql: Sql): RequestLogStore {
  return {
    async insert(rows) {
      if (rows.length === 0) return;
      const chunks = toChunks(rows);
      const columns = (["id", "account_id", "first_id", "minute", "rows", "errors", "keys", "data"] as const).map((column) => chunks.map((c) => c[column]));
      await sql.query("request_log_insert", INSERT, columns);
    },
    async list(accountId, filter, limit, before) {
      const merger = new ChunkMerger(filter, limit, before);
      const bounds = chunkBounds(filter, before);
      let below = bounds.idBelow;
      for (;;) {
        const { rows } = await sql.query<ChunkRead>("request_log_list", LIST, [accountId, bounds.idFrom, below, bounds.firstBelow]);
        if (rows.some((chunk) => merger.add(chunk)) || rows.length < LIST_PAGE) return merger.finish();
        below = rows.at(-1)!.id;
      }
    },
    async get(accountId, id) {
      const { rows } = await sql.query<Pick<ChunkRecord, "account_id" | "minute" | "data">>(
        "request_log_get",
        "SELECT account_id, minute, data FROM request_log_chunk WHERE account_id = $1 AND id >= $2 AND id < $3 AND first_id <= $2",
        [accountId, id, idBefore(idTime(id) + CHUNK_SPAN_MS + 1)],
      );
      for (const chunk of rows) {
        const row = chunkRows(chunk).find((r) => r.id === id);
        if (row) return row;
      }
      return null;
    },
    async hourlyByKey(accountId, from, to) {
      const { rows } = await sql.query<Pick<ChunkRecord, "minute" | "keys">>(
        "request_log_hourly_by_key",
        "SELECT minute, keys FROM request_log_chunk WHERE account_id = $1 AND id >= $2 AND id < $3 AND minute >= $4 AND minute < $5",
        [accountId, idBefore(from), idBefore(to + CHUNK_SPAN_MS), from, to],
      );
      return foldKeyHours(rows);
    },
    async prune(idBelow, limit) {
      const { rowCount } = await sql.query(
        "request_log_prune",
        "DELETE FROM request_log_chunk WHERE id IN (SELECT id FROM request_log_chunk WHERE id < $1 ORDER BY id LIMIT $2)",
        [idBelow, limit],
      );
      return rowCount ?? 0;
    },
  };
}
