import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { DEFAULT_DATABASE_URL, sqliteFileFromUrl } from "./lib/db/sqlite-url.ts";

// The CLI reads the generator settings through the schema, which names DATABASE_URL (and must see a file:
// URL there); if that read fails it falls back to downloading native engines, which cannot be fetched here.
// With a PostgreSQL DATABASE_URL set (scale-out), `prisma generate` of this SQLite client must still work;
// commands that connect refuse it (sqliteFileFromUrl) and PostgreSQL uses prisma.postgres.config.ts.
const databaseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
process.env.DATABASE_URL = databaseUrl.startsWith("file:") ? databaseUrl : DEFAULT_DATABASE_URL;

// The CLI runs with its WebAssembly schema engine through the driver adapter: native engines cannot be downloaded here.
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  async adapter() {
    return new PrismaBetterSQLite3({ url: sqliteFileFromUrl(databaseUrl) });
  },
});
