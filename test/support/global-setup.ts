import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { migrate } from "../../lib/db/migrate.ts";
import { createScratchDatabase, postgresUnavailable } from "./postgres.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The migrated SQLite file each test service's database is copied from (not in the `postgres` project). */
    templateDatabase: string;
    /** The `postgres` project: the migrated database each test service's database is created from. */
    postgresTemplateDatabase: string;
  }
}

/** The Vitest project that runs the API suite on PostgreSQL (see vitest.config.ts). */
export const POSTGRES_PROJECT = "postgres";

/** Migrates one database for the whole run; each test file starts from a copy of it. */
export default async function setup(project: TestProject) {
  if (project.name !== POSTGRES_PROJECT) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sharecount-template-"));
    const file = path.join(dir, "template.db");
    await migrate(`file:${file}`);
    project.provide("templateDatabase", file);
    return () => fs.rmSync(dir, { recursive: true, force: true });
  }

  // vitest.config.ts only defines this project when PostgreSQL answered, or with REQUIRE_SERVICES=1,
  // where an unreachable server must fail the run.
  const unavailable = await postgresUnavailable();
  if (unavailable) throw new Error(`${unavailable} (REQUIRE_SERVICES=1: the postgres project cannot be skipped)`);
  // Migrated once (the Prisma CLI takes seconds); each test service gets `CREATE DATABASE … TEMPLATE`.
  const template = await createScratchDatabase("template");
  try {
    await migrate(template.url);
  } catch (error) {
    await template.drop();
    throw error;
  }
  project.provide("postgresTemplateDatabase", template.name);
  return () => template.drop();
}
