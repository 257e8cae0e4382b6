import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import pg from "pg";
import { ensureDefaultPlans } from "../accounts/plans.ts";
import { parsePostgresUrl, isPostgresUrl } from "./postgres-url.ts";
import { createPrisma } from "./prisma.ts";
import { sqliteFileFromUrl } from "./sqlite-url.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Each database has its own checked-in migrations, schema and Prisma config. */
const SQLITE = {
  migrationsDir: path.join(root, "prisma", "migrations"),
  cliArgs: ["migrate", "deploy"],
};
const POSTGRES = {
  migrationsDir: path.join(root, "prisma", "postgres", "migrations"),
  cliArgs: ["migrate", "deploy", "--config", "prisma.postgres.config.ts"],
};

const APPLIED = "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL";

function wantedMigrations(migrationsDir: string): string[] {
  return fs
    .readdirSync(migrationsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

function appliedSqlite(databaseUrl: string): Set<string> {
  const db = new Database(sqliteFileFromUrl(databaseUrl));
  try {
    const table = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'").get();
    if (!table) return new Set();
    return new Set(db.prepare<[], { migration_name: string }>(APPLIED).all().map((r) => r.migration_name));
  } finally {
    db.close();
  }
}

async function appliedPostgres(databaseUrl: string): Promise<Set<string>> {
  const { connectionString, schema } = parsePostgresUrl(databaseUrl);
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    // The table Prisma keeps in the schema the migrations target (`?schema=`, else the search path's first).
    const { rows } = await client.query<{ table: string | null }>(
      schema
        ? { text: "SELECT to_regclass(format('%I._prisma_migrations', $1::text))::text AS table", values: [schema] }
        : "SELECT to_regclass('_prisma_migrations')::text AS table",
    );
    const table = rows[0]?.table;
    if (!table) return new Set();
    const applied = await client.query<{ migration_name: string }>(APPLIED.replace("_prisma_migrations", table));
    return new Set(applied.rows.map((r) => r.migration_name));
  } finally {
    await client.end();
  }
}

/** The checked-in migrations the database has not applied yet (all of them for a new database). */
export async function pendingMigrations(databaseUrl: string): Promise<string[]> {
  const postgres = isPostgresUrl(databaseUrl);
  const applied = postgres ? await appliedPostgres(databaseUrl) : appliedSqlite(databaseUrl);
  return wantedMigrations((postgres ? POSTGRES : SQLITE).migrationsDir).filter((name) => !applied.has(name));
}

/**
 * Brings the database (SQLite for `file:` URLs, PostgreSQL for `postgres(ql)://` URLs) to its checked-in
 * migrations with `prisma migrate deploy` (only when one is pending, since the CLI takes seconds to start,
 * and on PostgreSQL about ten more to exit) and writes the default plans where they are missing.
 */
export async function migrate(databaseUrl: string, log: (line: string) => void = () => {}): Promise<void> {
  const pending = await pendingMigrations(databaseUrl);
  if (pending.length > 0) {
    log(`applying migrations: ${pending.join(", ")}`);
    execFileSync(path.join(root, "node_modules", ".bin", "prisma"), (isPostgresUrl(databaseUrl) ? POSTGRES : SQLITE).cliArgs, {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ["ignore", "ignore", "inherit"],
    });
  }
  const prisma = createPrisma(databaseUrl);
  try {
    await ensureDefaultPlans(prisma);
  } finally {
    await prisma.$disconnect();
  }
}
