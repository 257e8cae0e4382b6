import fs from "node:fs";
import { assertOwnDatabase } from "./reset-data";

/**
 * Runs after the webServer has started (Playwright's order), so it must not touch the database: the
 * webServer command empties ./data/e2e-<port> itself before `npm start` (see e2e/reset-data.ts).
 */
export default function globalSetup() {
  assertOwnDatabase();
  const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!fs.existsSync(chromium)) {
    throw new Error(`no Chromium at ${chromium}: install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH`);
  }
}
