import { isPostgresUrl } from "../db/postgres-url.ts";
import { openPostgresStore } from "./postgres/open.ts";
import { openSqliteStore } from "./sqlite/open.ts";
import type { Store } from "./store.ts";

/** PostgreSQL for `postgres://` and `postgresql://` URLs; the embedded SQLite store for anything else. */
export function openStore(databaseUrl: string): Store {
  return isPostgresUrl(databaseUrl) ? openPostgresStore(databaseUrl) : openSqliteStore(databaseUrl);
}
