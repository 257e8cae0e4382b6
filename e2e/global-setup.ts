import fs from "node:fs";
import { E2E_DATA_DIR, E2E_ENV } from "./env";

/** Refuses to run against anything but its own local database, which starts empty every run. */
export default function globalSetup() {
  if (!E2E_ENV.DATABASE_URL!.startsWith("file:") || !E2E_DATA_DIR.includes(`${"data"}`)) {
    throw new Error("the e2e suite only runs against its own local SQLite file");
  }
  fs.rmSync(E2E_DATA_DIR, { recursive: true, force: true });
  fs.mkdirSync(E2E_DATA_DIR, { recursive: true });
}
