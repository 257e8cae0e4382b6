import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { ROOT, TSX } from "./admin-cli.ts";
import { freePort, killAll, startChild, waitHealthy, type Child } from "./processes.ts";

export interface App {
  url: string;
  port: number;
  child: Child;
  /** The data folder (SQLite file, server secret). */
  dataDir: string;
  close(): Promise<void>;
}

/** The dashboard's production build (npm test makes it before Vitest; this is a no-op then). */
export async function ensureDashboardBuild(): Promise<void> {
  await promisify(execFile)(TSX, ["scripts/ensure-build.ts"], { cwd: ROOT });
}

/**
 * The whole app as `npm start` runs it (start/one-process.ts: the API, the dashboard, the worker and the sandbox in one
 * process) on a port and data folder of its own; `env` as an operator would set it.
 */
export async function startApp(env: Record<string, string> = {}): Promise<App> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sharecount-app-"));
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: `file:${path.join(dataDir, "app.db")}`,
    SHARECOUNT_NETWORKS: "sandbox",
    SANDBOX_LATENCY_MS: "0",
    SHARECOUNT_DEMO: "false",
    QUOTA_TIMEZONE: "UTC",
    ...env,
  };
  delete childEnv.NODE_OPTIONS;
  delete childEnv.SHARECOUNT_TEST_STACK;
  const child = startChild("app", "start/one-process.ts", childEnv);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitHealthy(`${url}/readyz`, child, 120_000);
  } catch (error) {
    await killAll([child]);
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    port,
    child,
    dataDir,
    async close() {
      await killAll([child]);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
