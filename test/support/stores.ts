import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { createPrisma, type PrismaClient } from "../../lib/db/prisma.ts";
import { openStore } from "../../lib/store/open.ts";
import type { Store } from "../../lib/store/store.ts";
import { createScratchDatabase, postgresUnavailable, REQUIRE_SERVICES } from "./postgres.ts";
import { freshDatabase } from "./service.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const POSTGRES_MIGRATIONS = path.join(root, "prisma", "postgres", "migrations");

/** A migrated, empty database for store tests, and Prisma on it for fixtures. */
export interface StoreDatabase {
  url: string;
  prisma: PrismaClient;
  drop(): Promise<void>;
}

/** A copy of the run's migrated SQLite template. */
export async function sqliteStoreDatabase(): Promise<StoreDatabase> {
  const { url, dir } = freshDatabase();
  const prisma = createPrisma(url);
  return {
    url,
    prisma,
    drop: async () => {
      await prisma.$disconnect();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A scratch PostgreSQL database with the checked-in migrations' SQL applied directly (the Prisma CLI would
 * cost seconds; here only the tables matter).
 */
export async function postgresStoreDatabase(): Promise<StoreDatabase> {
  const db = await createScratchDatabase("store");
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    const names = fs.readdirSync(POSTGRES_MIGRATIONS, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
    for (const name of names.sort()) await client.query(fs.readFileSync(path.join(POSTGRES_MIGRATIONS, name, "migration.sql"), "utf8"));
  } finally {
    await client.end();
  }
  const prisma = createPrisma(db.url);
  return {
    url: db.url,
    prisma,
    drop: async () => {
      await prisma.$disconnect();
      await db.drop();
    },
  };
}

/** Why the PostgreSQL store tests skip (no server, and REQUIRE_SERVICES is not set), or undefined when they run. */
export async function postgresSkipReason(file: string): Promise<string | undefined> {
  const unavailable = await postgresUnavailable();
  if (unavailable === undefined || REQUIRE_SERVICES) return undefined;
  console.warn(`[skipped] ${file} on PostgreSQL: ${unavailable} (REQUIRE_SERVICES=1 makes this a failure)`);
  return unavailable;
}

export interface TwoStores {
  db: StoreDatabase;
  /** Two stores on one database stand for two processes: each has its own connection or pool. */
  a: Store;
  b: Store;
  /** A new account on `plan`, its key's hash `hash-<id>`, its whitelist b.example and a.example; its id. */
  account(plan?: string): Promise<string>;
}

/** Two stores on a fresh database with these plans, for the tests of the calling describe block. */
export function twoStores(
  database: () => Promise<StoreDatabase>,
  plans: { name: string; dailyQuota: number; bulkBatchLimit: number; customTtlAllowed: boolean; trackedUrlLimit?: number }[],
  skip = false,
): TwoStores {
  let seq = 0;
  const handle = {
    async account(plan = plans[0]!.name) {
      const id = `acct-${++seq}`;
      await handle.db.prisma.account.create({
        data: {
          id,
          email: `${id}@example.com`,
          planName: plan,
          apiKeys: { create: { id: `key-${id}`, name: "Default", keyHash: `hash-${id}`, scopes: "counts:read account:read" } },
          whitelist: { create: [{ domain: "b.example" }, { domain: "a.example" }] },
        },
      });
      return id;
    },
  } as TwoStores;
  beforeAll(async () => {
    if (skip) return;
    handle.db = await database();
    await handle.db.prisma.plan.createMany({ data: plans });
    handle.a = openStore(handle.db.url);
    handle.b = openStore(handle.db.url);
  });
  afterAll(async () => {
    await handle.a?.close();
    await handle.b?.close();
    await handle.db?.drop();
  });
  return handle;
}
