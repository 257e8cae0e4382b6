import type Database from "better-sqlite3";
import { CHUNK_SPAN_MS, chunkBounds, ChunkMerger, chunkRows, foldKeyHours, idBefore, idTime, toChunks, type ChunkRead, type ChunkRecord } from "../request-chunks.ts";
import type { RequestLogStore } from "../requests.ts";

/** The request log in chunks (see request-chunks.ts). */
export function sqliteRequests(db: Database.Database): RequestLogStore {
  const statements = {
    // The account may have been deleted since its requests: its chunk is skipped, not the batch.
    insert: db.prepare<ChunkRecord>(
      `INSERT INTO request_log_chunk (id, account_id, first_id, minute, rows, errors, keys, data)
       SELECT $id, $account_id, $first_id, $minute, $rows, $errors, $keys, $data WHERE EXISTS (SELECT 1 FROM account WHERE id = $account_id)`,
    ),
    list: db.prepare<{ account: string; idFrom: string | null; idBelow: string | null; firstBelow: string | null }, ChunkRead>(
      `SELECT id, account_id, minute, rows, errors, keys, data FROM request_log_chunk
       WHERE account_id = $account AND ($idFrom IS NULL OR id >= $idFrom) AND ($idBelow IS NULL OR id < $idBelow)
         AND ($firstBelow IS NULL OR first_id < $firstBelow)
       ORDER BY id DESC`,
    ),
    get: db.prepare<[string, string, string, string], Pick<ChunkRecord, "account_id" | "minute" | "data">>(
      "SELECT account_id, minute, data FROM request_log_chunk WHERE account_id = ? AND id >= ? AND id < ? AND first_id <= ?",
    ),
    hourly: db.prepare<[string, string, string, number, number], Pick<ChunkRecord, "minute" | "keys">>(
      `SELECT minute, keys FROM request_log_chunk WHERE account_id = ? AND id >= ? AND id < ? AND minute >= ? AND minute < ?`,
    ),
    prune: db.prepare<[string, number]>(
      "DELETE FROM request_log_chunk WHERE id IN (SELECT id FROM request_log_chunk WHERE id < ? ORDER BY id LIMIT ?)",
    ),
  };
  const insert = db.transaction((chunks: ChunkRecord[]) => {
    for (const chunk of chunks) statements.insert.run(chunk);
  });
  return {
    async insert(rows) {
      if (rows.length > 0) insert(toChunks(rows));
    },
    async list(accountId, filter, limit, before) {
      const merger = new ChunkMerger(filter, limit, before);
      // Read chunk by chunk, newest first, and stopped as soon as the page is full.
      for (const chunk of statements.list.iterate({ account: accountId, ...chunkBounds(filter, before) })) if (merger.add(chunk)) break;
      return merger.finish();
    },
    async get(accountId, id) {
      const time = idTime(id);
      for (const chunk of statements.get.iterate(accountId, id, idBefore(time + CHUNK_SPAN_MS + 1), id)) {
        const row = chunkRows(chunk).find((r) => r.id === id);
        if (row) return row;
      }
      return null;
    },
    async hourlyByKey(accountId, from, to) {
      return foldKeyHours(statements.hourly.iterate(accountId, idBefore(from), idBefore(to + CHUNK_SPAN_MS), from, to));
    },
    async prune(idBelow, limit) {
      return statements.prune.run(idBelow, limit).changes;
    },
  };
}
