import { PrismaClient } from "./generated/client.ts";
import { PrismaClient as PostgresPrismaClient } from "./generated-pg/client.ts";
import { createPgAdapter } from "./postgres-adapter.ts";
import { isPostgresUrl } from "./postgres-url.ts";
import { sqliteFileFromUrl } from "./sqlite-url.ts";
import { gatedSqliteAdapter, type GateOptions } from "./sqlite-write-gate.ts";

/**
 * The SQLite client's type stands for both: the PostgreSQL client is generated from the same models
 * (prisma/postgres/schema.prisma is derived from prisma/schema.prisma), so their model APIs are the same.
 */
export type { PrismaClient };

/** The clients createPrisma opened on PostgreSQL (Prisma's client is a proxy: `instanceof` cannot tell). */
const postgresClients = new WeakSet<PrismaClient>();

/**
 * Interactive transactions queue for SQLite's one writer (and a pool's connections): Prisma's defaults (2 s to
 * start, 5 s to finish) fail them on a loaded machine, where a short write can wait behind others for seconds.
 */
const TRANSACTIONS = { maxWait: 10_000, timeout: 20_000 };

/**
 * Prisma through its driver adapter (no native query engine): for accounts, plans and the dashboard.
 * `file:` URLs open SQLite (better-sqlite3); `postgres://` and `postgresql://` URLs open PostgreSQL (a `pg` pool).
 */
export function createPrisma(databaseUrl: string, sqlite: GateOptions = {}): PrismaClient {
  if (isPostgresUrl(databaseUrl)) {
    const client = new PostgresPrismaClient({ adapter: createPgAdapter(databaseUrl), transactionOptions: TRANSACTIONS }) as unknown as PrismaClient;
    postgresClients.add(client);
    return client;
  }
  return new PrismaClient({ adapter: gatedSqliteAdapter(sqliteFileFromUrl(databaseUrl), sqlite), transactionOptions: TRANSACTIONS });
}

/** Whether the client is PostgreSQL's: for the few statements that differ by database (a lock). */
export function isPostgresClient(prisma: PrismaClient): boolean {
  return postgresClients.has(prisma);
}

/** Resolves once the database answers a query; rejects while it is unreachable. */
export async function pingDatabase(prisma: PrismaClient): Promise<void> {
  await prisma.$queryRaw`SELECT 1`;
}
