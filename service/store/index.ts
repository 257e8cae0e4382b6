import { isPostgresUrl } from "../../lib/db/postgres-url.ts";
import { openPostgresStore } from "./postgres.ts";
import { openSqliteStore } from "./sqlite.ts";
import type { Store } from "./types.ts";

/** PostgreSQL for `postgres://` and `postgresql://` URLs; the embedded SQLite store for anything else. */
export function openStore(databaseUrl: string): Store {
  return isPostgresUrl(databaseUrl) ? openPostgresStore(databaseUrl) : openSqliteStore(databaseUrl);
}
