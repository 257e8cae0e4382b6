import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { migrate } from "../lib/db/migrate";
import { createDatabase, dropDatabase } from "../lib/db/postgres-admin";
import { deleteKeysUnder } from "../lib/redis/redis";
import { SCALE_API_PORT, SCALE_DATABASE, SCALE_ENV, SCALE_SERVER_URL, SCALE_WEB_PORT, SCALE_WORKER_PORT } from "./scale-env";

/*
 * The webServer command for the scale-out layout (see playwright.config.ts): a fresh PostgreSQL database
 * and Redis prefix, then the API, a bulk worker and the dashboard as three processes, as the README's
 * deployment guide runs them. SIGTERM stops them all; if one exits, the others are stopped and this fails.
 */

/** Drops the layout's database and Redis keys, and with `create` makes an empty database again. */
async function clear(create: boolean): Promise<void> {
  await dropDatabase(SCALE_SERVER_URL, SCALE_DATABASE);
  if (create) await createDatabase(SCALE_SERVER_URL, SCALE_DATABASE);
  await deleteKeysUnder(SCALE_ENV.REDIS_URL!, SCALE_ENV.REDIS_PREFIX!);
}

async function fresh(): Promise<void> {
  await clear(true);
  await migrate(SCALE_ENV.DATABASE_URL!);
}

/** The dashboard's build, which the other webServer's `npm start` makes when it is missing. */
async function built(): Promise<void> {
  const buildId = path.resolve(process.env.NEXT_DIST_DIR ?? ".next", "BUILD_ID");
  for (let waited = 0; !fs.existsSync(buildId); waited += 1000) {
    if (waited > 600_000) throw new Error(`no dashboard build at ${buildId} after 10 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

await Promise.all([fresh(), built()]);
const children: ChildProcess[] = [];
let stopping = false;
function start(name: string, script: string, port: number) {
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    env: { ...process.env, ...SCALE_ENV, PORT: String(port) },
    stdio: ["ignore", "inherit", "inherit"],
  });
  child.once("exit", (code, signal) => {
    if (stopping) return;
    console.error(`scale layout: ${name} exited (${signal ?? code}); stopping the others`);
    void stop(1);
  });
  children.push(child);
}
async function stop(code: number) {
  stopping = true;
  await Promise.all(
    children.map((child) =>
      child.exitCode !== null || child.signalCode !== null
        ? undefined
        : new Promise((resolve) => {
            child.once("exit", resolve);
            child.kill("SIGTERM");
          }),
    ),
  );
  await clear(false).catch((error: unknown) => console.error("scale layout: could not clean up", error));
  process.exit(code);
}
process.on("SIGTERM", () => void stop(0));
process.on("SIGINT", () => void stop(0));
start("api", "start/api.ts", SCALE_API_PORT);
start("worker", "start/worker.ts", SCALE_WORKER_PORT);
start("web", "start/dashboard.ts", SCALE_WEB_PORT);
