import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { generatePostgresSchema, POSTGRES_SCHEMA, postgresSchemaFrom } from "../../scripts/prisma-postgres.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

// No database needed: these guard the one-source-of-truth rule for the PostgreSQL twin.
describe("PostgreSQL schema twin", () => {
  it("prisma/postgres/schema.prisma is what scripts/prisma-postgres.ts makes of prisma/schema.prisma (run `npm run db:schema:pg`)", () => {
    const checkedIn = fs.readFileSync(POSTGRES_SCHEMA, "utf8");
    // A plain toBe: on failure the diff shows which lines are stale.
    expect(checkedIn).toBe(generatePostgresSchema());
  });

  it("differs from the SQLite schema in provider and client output only", () => {
    const sqlite = fs.readFileSync(path.join(root, "prisma", "schema.prisma"), "utf8").split("\n");
    const postgres = generatePostgresSchema().split("\n").filter((line) => !line.startsWith("// GENERATED") && !line.startsWith("// Edit prisma/schema.prisma"));
    expect(postgres[0]).toBe("");
    const body = postgres.slice(1);
    expect(body.length).toBe(sqlite.length);
    const changed = body.flatMap((line, i) => (line === sqlite[i] ? [] : [[sqlite[i]!.trim(), line.trim()]]));
    expect(changed).toEqual([
      ['output       = "../lib/db/generated"', 'output       = "../../lib/db/generated-pg"'],
      ['provider = "sqlite"', 'provider = "postgresql"'],
    ]);
  });

  it("fails loudly when the SQLite schema no longer has the lines it rewrites", () => {
    expect(() => postgresSchemaFrom('generator client {\n  output = "elsewhere"\n}\ndatasource db {\n  provider = "sqlite"\n}\n')).toThrow(
      /generator output/,
    );
    expect(() => postgresSchemaFrom('generator client {\n  output = "../lib/db/generated"\n}\n')).toThrow(/datasource provider/);
  });

  it("has its own migrations, locked to PostgreSQL", () => {
    const dir = path.join(root, "prisma", "postgres", "migrations");
    expect(fs.readFileSync(path.join(dir, "migration_lock.toml"), "utf8")).toMatch(/^provider = "postgresql"$/m);
    const migrations = fs.readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
    expect(migrations).toContain("0001_init");
    for (const name of migrations) expect(fs.existsSync(path.join(dir, name, "migration.sql"))).toBe(true);
  });
});
