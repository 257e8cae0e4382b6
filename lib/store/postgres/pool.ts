import pg from "pg";
import { pgPoolConfig } from "../../db/postgres-adapter.ts";

const INT8_OID = 20;

/**
 * Epoch-millisecond columns are BIGINT; `pg` returns int8 as a string by default (it may exceed 2^53).
 * Milliseconds since 1970 stay far below 2^53, so this pool reads int8 as a number (for its own
 * connections only: the global `pg.types` are left alone).
 */
const types = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === INT8_OID && format !== "binary") return (value: string) => Number(value);
    return (pg.types.getTypeParser as (oid: number, format?: "text" | "binary") => unknown)(oid, format);
  },
} as unknown as pg.CustomTypesConfig;

/** Connection-level failures: PostgreSQL could not be reached or used, as opposed to a bug in a query. */
const NETWORK_ERROR_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);
const UNAVAILABLE_MESSAGES = [
  /Cannot use a pool after calling end on the pool/i,
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error/i,
  /Client was closed and is not queryable/i,
];

export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") {
    if (NETWORK_ERROR_CODES.has(code)) return true;
    // Class 08: connection exception; 57P01..57P05: admin/crash shutdown, cannot connect now, idle
    // session timeout; 53300: too many connections; 3D000: the database does not exist (dropped).
    if (code.startsWith("08") || /^57P0[1-5]$/.test(code) || code === "53300" || code === "3D000") return true;
  }
  return UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(error.message));
}

/** Named (so prepared once per connection) queries, and transactions on one connection. */
export interface Sql {
  query<R extends pg.QueryResultRow>(name: string, text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
  /** Runs `body` in a transaction on one connection; rolls back when it throws. */
  transaction<T>(body: (client: pg.PoolClient) => Promise<T>): Promise<T>;
}

export function openPool(databaseUrl: string): { pool: pg.Pool; sql: Sql } {
  const pool = new pg.Pool({
    ...pgPoolConfig(databaseUrl),
    types,
    max: 10,
    // A request must not wait forever for a database that is gone: it becomes a 503.
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle connection that breaks (server restart, database dropped) must not crash the process: the
  // pool discards it, and the next query opens a new one (or fails with an unavailable error).
  pool.on("error", () => {});

  const sql: Sql = {
    query: (name, text, values = []) => pool.query({ name, text, values }),
    async transaction(body) {
      const client = await pool.connect();
      let broken = false;
      try {
        await client.query("BEGIN");
        const result = await body(client);
        await client.query("COMMIT");
        return result;
      } catch (error) {
        try {
          await client.query("ROLLBACK");
        } catch {
          broken = true;
        }
        throw error;
      } finally {
        // A connection whose rollback failed is in an unknown state: destroy it rather than reuse it.
        client.release(broken);
      }
    },
  };
  return { pool, sql };
}

/** Rows in one order for every process (so batches lock rows in the same order and never deadlock). */
export function sortedBy<T>(items: Iterable<[string, T]>): T[] {
  return [...items].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)).map(([, item]) => item);
}
