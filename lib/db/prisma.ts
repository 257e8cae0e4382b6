import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "./generated/client.ts";
import { sqliteFileFromUrl } from "./sqlite-url.ts";

export type { PrismaClient };

/** Prisma through its driver adapter (no native query engine): for accounts, plans and the dashboard. */
export function createPrisma(databaseUrl: string): PrismaClient {
  return new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: sqliteFileFromUrl(databaseUrl) }) });
}
