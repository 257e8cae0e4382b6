import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "./generated/client.ts";
import { PrismaClient as PostgresPrismaClient } from "./generated-pg/client.ts";
import { createPgAdapter } from "./postgres-adapter.ts";
import { isPostgresUrl } from "./postgres-url.ts";
import { sqliteFileFromUrl } from "./sqlite-url.ts";

/**
 * The SQLite client's type stands for both: the PostgreSQL client is generated from the same models
 * (prisma/postgres/schema.prisma is derived from prisma/schema.prisma), so their model APIs are the same.
 */
export type { PrismaClient };

/**
 * Prisma through its driver adapter (no native query engine): for accounts, plans and the dashboard.
 * `file:` URLs open SQLite (better-sqlite3); `postgres://` and `postgresql://` URLs open PostgreSQL (a `pg` pool).
 */
export function createPrisma(databaseUrl: string): PrismaClient {
  if (isPostgresUrl(databaseUrl)) {
    return new PostgresPrismaClient({ adapter: createPgAdapter(databaseUrl) }) as unknown as PrismaClient;
  }
  return new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: sqliteFileFromUrl(databaseUrl) }) });
}

/** Resolves once the database answers a query; rejects while it is unreachable. */
export async function pingDatabase(prisma: PrismaClient): Promise<void> {
  await prisma.$queryRaw`SELECT 1`;
}
