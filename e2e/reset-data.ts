import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { E2E_DATA_DIR, E2E_ENV } from "./env";

/**
 * Empties the e2e server's own data folder (database and server secret). Run by the webServer command just
 * before `npm start`: Playwright starts the webServer *before* globalSetup, so wiping there would delete the
 * database under a server that already opened it.
 */
export function resetE2EData(): void {
  assertOwnDatabase();
  fs.rmSync(E2E_DATA_DIR, { recursive: true, force: true });
  fs.mkdirSync(E2E_DATA_DIR, { recursive: true });
}

/** Refuses to touch anything but the suite's own local SQLite file under ./data/e2e-<port>. */
export function assertOwnDatabase(): void {
  const expectedParent = path.resolve("data");
  if (
    !E2E_ENV.DATABASE_URL!.startsWith("file:") ||
    path.dirname(E2E_DATA_DIR) !== expectedParent ||
    !path.basename(E2E_DATA_DIR).startsWith("e2e-")
  ) {
    throw new Error("the e2e suite only runs against its own local SQLite file under ./data/e2e-<port>");
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) resetE2EData();
