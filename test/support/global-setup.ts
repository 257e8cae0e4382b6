import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { migrate } from "../../lib/db/migrate.ts";

declare module "vitest" {
  export interface ProvidedContext {
    templateDatabase: string;
  }
}

/** Migrates one database for the whole run; each test file starts from a copy of it. */
export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sharecount-template-"));
  const file = path.join(dir, "template.db");
  await migrate(`file:${file}`);
  project.provide("templateDatabase", file);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
