import Database from "better-sqlite3";
import { sqliteFileFromUrl } from "../../db/sqlite-url.ts";
import type { Store } from "../store.ts";
import { withOutagesTyped } from "../unavailable.ts";
import { sqliteAccounts } from "./accounts.ts";
import { sqliteBulk } from "./bulk.ts";
import { sqliteKnownCounts } from "./counts.ts";
import { sqliteHistory } from "./history.ts";
import { sqliteImports } from "./imports.ts";
import { sqliteRequests } from "./requests.ts";
import { sqliteTracked } from "./tracked.ts";
import { sqliteUsage } from "./usage.ts";

/**
 * SQLite's result codes for a database that cannot be used right now (locked, full, unreadable, gone), as
 * opposed to a statement that is wrong (a constraint, a syntax error): only these are outages.
 */
const OUTAGE_CODES = /^SQLITE_(BUSY|LOCKED|FULL|IOERR|CORRUPT|CANTOPEN|READONLY|NOTADB|PROTOCOL|NOMEM|PERM|AUTH)/;

const isOutageError = (error: unknown) => error instanceof Database.SqliteError && OUTAGE_CODES.test(error.code);

/** The embedded store: one SQLite file in WAL mode, every statement prepared once. */
export function openSqliteStore(databaseUrl: string): Store {
  const db = new Database(sqliteFileFromUrl(databaseUrl));
  db.pragma("journal_mode = WAL");
  // NORMAL in WAL mode survives a process crash (only an OS crash can lose the last commits).
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 5000");
  db.pragma("foreign_keys = ON");

  const ping = db.prepare("SELECT 1 FROM plan LIMIT 1");
  const { usage, reserveIn } = sqliteUsage(db);
  // Calls on a closed database are outages too.
  const typed = <S extends object>(concern: S) =>
    withOutagesTyped(concern, (error) => isOutageError(error) || (error instanceof TypeError && !db.open));
  const lifecycle = typed({
    async ping() {
      ping.get();
    },
    async close() {
      db.close();
    },
  });
  return {
    accounts: typed(sqliteAccounts(db)),
    usage: typed(usage),
    bulk: typed(sqliteBulk(db, reserveIn)),
    counts: typed(sqliteKnownCounts(db)),
    history: typed(sqliteHistory(db)),
    tracked: typed(sqliteTracked(db)),
    imports: typed(sqliteImports(db)),
    requests: typed(sqliteRequests(db)),
    ...lifecycle,
  };
}
