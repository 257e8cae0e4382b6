import { spawnSync } from "node:child_process";
import { databaseUrl } from "../lib/db/postgres-admin";
import { E2E_PORT } from "./env";

/**
 * The scale-out layout for e2e/scale.spec.ts: `npm run start:web`, `start:api` and `start:worker` as
 * separate processes on PostgreSQL + Redis, beside the one-process server the rest of the suite uses.
 */
export const SCALE_WEB_PORT = E2E_PORT + 1;
export const SCALE_API_PORT = E2E_PORT + 2;
export const SCALE_WORKER_PORT = E2E_PORT + 3;
export const SCALE_WEB_URL = `http://127.0.0.1:${SCALE_WEB_PORT}`;
export const SCALE_API_URL = `http://127.0.0.1:${SCALE_API_PORT}`;

const POSTGRES_URL = process.env.POSTGRES_TEST_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
export const SCALE_DATABASE = `sc_e2e_scale_${E2E_PORT}`;
export const SCALE_SERVER_URL = POSTGRES_URL;

/** What every process of the layout shares (PORT is each one's own). */
export const SCALE_ENV: Record<string, string> = {
  HOST: "127.0.0.1",
  DATABASE_URL: databaseUrl(POSTGRES_URL, SCALE_DATABASE),
  REDIS_URL: process.env.REDIS_TEST_URL ?? "redis://127.0.0.1:6379",
  REDIS_PREFIX: `sce2e-${E2E_PORT}`,
  SHARECOUNT_SECRET: "sharecount-e2e-scale-secret-".padEnd(48, "x"),
  SHARECOUNT_API_URL: SCALE_API_URL,
  SHARECOUNT_NETWORKS: "sandbox",
  SANDBOX_LATENCY_MS: "30",
  SHARECOUNT_DEMO: "false",
  QUOTA_TIMEZONE: "UTC",
};

const PROBE = `
const net = require("node:net");
const probe = (url, port) => new Promise((resolve) => {
  const u = new URL(url);
  const socket = net.connect({ host: u.hostname, port: Number(u.port || port), timeout: 1500 });
  socket.once("connect", () => { socket.destroy(); resolve(null); });
  socket.once("timeout", () => { socket.destroy(); resolve(url + " does not answer"); });
  socket.once("error", (e) => resolve(url + ": " + e.message));
});
Promise.all([probe(process.argv[1], 5432), probe(process.argv[2], 6379)]).then((r) => {
  const why = r.filter(Boolean).join("; ");
  if (why) console.log(why);
});
`;

/**
 * Why the layout cannot run here (PostgreSQL or Redis not listening), or undefined. Synchronous: the
 * Playwright config, which decides whether to start the layout, cannot await.
 */
export function scaleUnavailable(): string | undefined {
  const result = spawnSync(process.execPath, ["-e", PROBE, POSTGRES_URL, SCALE_ENV.REDIS_URL!], { encoding: "utf8", timeout: 10_000 });
  const why = result.stdout.trim();
  return why || undefined;
}

export const REQUIRE_SERVICES = process.env.REQUIRE_SERVICES === "1";
/** The layout runs where the services answer, and always in CI (where a missing service must fail). */
export const SCALE_ENABLED = REQUIRE_SERVICES || scaleUnavailable() === undefined;
