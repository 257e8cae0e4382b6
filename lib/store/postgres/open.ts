import type { Store } from "../store.ts";
import { withOutagesTyped } from "../unavailable.ts";
import { postgresAccounts } from "./accounts.ts";
import { postgresBulk } from "./bulk.ts";
import { postgresKnownCounts } from "./counts.ts";
import { postgresHistory } from "./history.ts";
import { postgresImports } from "./imports.ts";
import { postgresTracked } from "./tracked.ts";
import { isConnectionError, openPool } from "./pool.ts";
import { postgresRequests } from "./requests.ts";
import { postgresUsage } from "./usage.ts";

/**
 * The scale-out store: PostgreSQL through a `pg` pool. Same semantics as the SQLite store, made exact
 * across processes: quota reservations are single conditional upserts (row-locked by PostgreSQL), and a
 * bulk URL is locked, counted, completed and its job advanced in one statement that only does anything
 * for the one process that still finds the URL queued (and nothing at all when the quota is used up).
 */
export function openPostgresStore(databaseUrl: string): Store {
  const { pool, sql } = openPool(databaseUrl);
  let closed = false;
  // After close() every query fails with the pool's "ended" error, which is what a closed store means.
  const typed = <S extends object>(concern: S) =>
    withOutagesTyped(concern, (error) => isConnectionError(error) || (closed && error instanceof Error));
  const accounts = postgresAccounts(databaseUrl, sql);
  const lifecycle = typed({
    async ping() {
      await sql.query("ping", "SELECT 1 FROM plan LIMIT 1");
    },
    async close() {
      if (closed) return;
      closed = true;
      await accounts.close();
      await pool.end();
    },
  });
  return {
    accounts: typed(accounts),
    usage: typed(postgresUsage(sql)),
    bulk: typed(postgresBulk(sql)),
    counts: typed(postgresKnownCounts(sql)),
    history: typed(postgresHistory(sql)),
    tracked: typed(postgresTracked(sql)),
    imports: typed(postgresImports(sql)),
    requests: typed(postgresRequests(sql)),
    ...lifecycle,
  };
}
