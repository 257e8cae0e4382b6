import pg from "pg";
import { parsePostgresUrl } from "./postgres-url.ts";

/** Runs `sql` on the server `serverUrl` names, on a short-lived connection of its own. */
async function onServer(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: parsePostgresUrl(serverUrl).connectionString, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The URL of database `name` on the same server, as the same user, with the same options. */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Creates database `name` (a plain identifier) beside the one `serverUrl` names: empty, or a copy of `template`. */
export function createDatabase(serverUrl: string, name: string, template?: string): Promise<void> {
  return onServer(serverUrl, `CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ""}`);
}

/** Drops database `name` if it exists, closing whatever connections are still open to it. */
export function dropDatabase(serverUrl: string, name: string): Promise<void> {
  return onServer(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}
