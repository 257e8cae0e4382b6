import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { ensureDefaultPlans } from "../plans.ts";
import { createPrisma } from "./prisma.ts";
import { sqliteFileFromUrl } from "./sqlite-url.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const migrationsDir = path.join(root, "prisma", "migrations");

function pendingMigrations(databaseUrl: string): string[] {
  const wanted = fs
    .readdirSync(migrationsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  const db = new Database(sqliteFileFromUrl(databaseUrl));
  try {
    const table = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'").get();
    if (!table) return wanted;
    const applied = new Set(
      db
        .prepare<[], { migration_name: string }>(
          "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL",
        )
        .all()
        .map((r) => r.migration_name),
    );
    return wanted.filter((name) => !applied.has(name));
  } finally {
    db.close();
  }
}

/**
 * Brings the database to the checked-in migrations with `prisma migrate deploy` (only when one is pending,
 * since the CLI takes seconds to start) and writes the default plans where they are missing.
 */
export async function migrate(databaseUrl: string, log: (line: string) => void = () => {}): Promise<void> {
  const pending = pendingMigrations(databaseUrl);
  if (pending.length > 0) {
    log(`applying migrations: ${pending.join(", ")}`);
    execFileSync(path.join(root, "node_modules", ".bin", "prisma"), ["migrate", "deploy"], {
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
