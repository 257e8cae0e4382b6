import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { migrate } from "../../lib/db/migrate.ts";
import { createScratchDatabase, postgresUnavailable } from "./postgres.ts";
import { redisUnavailable } from "./redis.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The migrated SQLite file each test service's database is copied from (not in the `scale` project). */
    templateDatabase: string;
    /** The `scale` project: the migrated PostgreSQL database each test service's database is created from. */
    postgresTemplateDatabase: string;
  }
}

/** The Vitest project that runs the API suite on PostgreSQL + Redis (see vitest.config.ts). */
export const SCALE_PROJECT = "scale";

/** Migrates one database for the whole run; each test file starts from a copy of it. */
export default async function setup(project: TestProject) {
  if (project.name !== SCALE_PROJECT) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sharecount-template-"));
    const file = path.join(dir, "template.db");
    await migrate(`file:${file}`);
    project.provide("templateDatabase", file);
    return () => fs.rmSync(dir, { recursive: true, force: true });
  }

  // vitest.config.ts only defines this project when PostgreSQL and Redis answered, or with
  // REQUIRE_SERVICES=1, where an unreachable server must fail the run.
  for (const unavailable of await Promise.all([postgresUnavailable(), redisUnavailable()])) {
    if (unavailable) throw new Error(`${unavailable} (REQUIRE_SERVICES=1: the scale project cannot be skipped)`);
  }
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
