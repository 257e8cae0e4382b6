import { randomBytes } from "node:crypto";
import pg from "pg";
import { createDatabase, databaseUrl, dropDatabase } from "../../lib/db/postgres-admin.ts";

/**
 * The PostgreSQL server the service tests use: trust auth on the project's machines (see the stack guide).
 * Any database on it does: scratch databases are created beside it and dropped afterwards.
 */
export const POSTGRES_TEST_URL = process.env.POSTGRES_TEST_URL ?? "postgresql://postgres@127.0.0.1:5432/test";

/** `REQUIRE_SERVICES=1` (CI): a missing service fails the run instead of skipping its tests. */
export const REQUIRE_SERVICES = process.env.REQUIRE_SERVICES === "1";

/** Why PostgreSQL cannot be used (undefined when it answers), with a short connect timeout. */
export async function postgresUnavailable(url = POSTGRES_TEST_URL, timeoutMs = 2_000): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return undefined;
  } catch (error) {
    return `PostgreSQL is not reachable at ${redact(url)}: ${(error as Error).message || String(error)}`;
  } finally {
    await client.end().catch(() => {});
  }
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@");
}

export interface ScratchDatabase {
  name: string;
  /** The scratch database's URL (same server, user and options as the server URL). */
  url: string;
  /** Drops it, closing whatever connections are still open. */
  drop(): Promise<void>;
}

/**
 * A new database `sc_<prefix>_<random>` on the test server: empty, or a copy of `options.template` (a
 * database nobody is connected to, such as the migrated template the API suite's global setup makes).
 */
export async function createScratchDatabase(
  prefix: string,
  serverUrl = POSTGRES_TEST_URL,
  options: { template?: string } = {},
): Promise<ScratchDatabase> {
  const name = `sc_${prefix.replace(/[^a-z0-9_]/gi, "_").toLowerCase()}_${randomBytes(4).toString("hex")}`;
  for (let attempt = 1; ; attempt++) {
    try {
      await createDatabase(serverUrl, name, options.template);
      break;
    } catch (error) {
      // Copying a template fails while another session is connected to it (briefly, e.g. another copy).
      if (!options.template || attempt >= 20 || !/being accessed by other users/.test((error as Error).message)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
  return { name, url: databaseUrl(serverUrl, name), drop: () => dropDatabase(serverUrl, name) };
}
