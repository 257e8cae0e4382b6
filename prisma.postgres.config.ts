import path from "node:path";
import { defineConfig } from "prisma/config";
import { createPgMigrationAdapter } from "./lib/db/postgres-adapter.ts";
import { isPostgresUrl } from "./lib/db/postgres-url.ts";

// The PostgreSQL twin of prisma.config.ts: `prisma <command> --config prisma.postgres.config.ts`.
// prisma/postgres/schema.prisma is generated from prisma/schema.prisma (scripts/prisma-postgres.ts).
//
// The CLI reads the generator settings through the schema, which names DATABASE_URL (and must see a
// postgresql:// URL there); if that read fails it falls back to downloading native engines, which cannot be
// fetched here. `prisma generate` needs no database, so a placeholder stands in when DATABASE_URL is unset
// or points at SQLite; commands that connect (migrate deploy, db push, ...) refuse anything but PostgreSQL.
const databaseUrl = process.env.DATABASE_URL;
if (!isPostgresUrl(databaseUrl)) process.env.DATABASE_URL = "postgresql://placeholder.invalid/sharecount";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "postgres", "schema.prisma"),
  migrations: { path: path.join("prisma", "postgres", "migrations") },
  async adapter() {
    if (!isPostgresUrl(databaseUrl)) {
      throw new Error("prisma.postgres.config.ts: DATABASE_URL must be a postgres:// or postgresql:// URL");
    }
    return createPgMigrationAdapter(databaseUrl);
  },
});
