import { Accounts } from "../../lib/accounts/accounts.ts";
import { openStore } from "../../lib/store/open.ts";
import { createPrisma } from "../../lib/db/prisma.ts";
import { parseEnv } from "../../lib/env.ts";
import { freePort, killAll, startChild, waitHealthy, type Child } from "../support/processes.ts";
import { testDatabase } from "../support/service.ts";
import { QuotaClock } from "../../lib/quota/clock.ts";

/**
 * A scale-out deployment for one test: its own PostgreSQL database (migrated) and Redis key prefix, and
 * helpers to start API and worker processes on them as `npm run start:api` and `start:worker` do.
 */
export async function scaleDeployment(extraEnv: Record<string, string> = {}) {
  const storage = await testDatabase();
  const base: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: "127.0.0.1",
    DATABASE_URL: storage.url,
    ...storage.env,
    SHARECOUNT_NETWORKS: "sandbox",
    SANDBOX_LATENCY_MS: "0",
    QUOTA_TIMEZONE: "UTC",
    ...extraEnv,
  };
  delete base.NODE_OPTIONS;
  delete base.SHARECOUNT_TEST_STACK;
  const env = parseEnv(base);
  const prisma = createPrisma(env.DATABASE_URL);
  const store = openStore(env.DATABASE_URL);
  const accounts = new Accounts(prisma, new QuotaClock(env.QUOTA_TIMEZONE), store);
  const children: Child[] = [];

  /** Starts `script` on a port of its own; resolves when its health endpoint answers 200. */
  async function start(name: string, script: string, healthPath: string, env: Record<string, string> = {}) {
    const port = await freePort();
    const sandboxPort = await freePort();
    const child = startChild(name, script, { ...base, PORT: String(port), SANDBOX_PORT: String(sandboxPort), ...env });
    children.push(child);
    const url = `http://127.0.0.1:${port}`;
    await waitHealthy(`${url}${healthPath}`, child);
    return { child, url, sandboxUrl: `http://127.0.0.1:${sandboxPort}` };
  }

  return {
    /** The environment every process of the deployment starts with (PORT is each one's own). */
    processEnv: base,
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL!,
    redisPrefix: env.REDIS_PREFIX,
    prisma,
    accounts,
    children,
    api: (name: string, env?: Record<string, string>) => start(name, "start/api.ts", "/v1.0/status", env),
    worker: (name: string, env?: Record<string, string>) => start(name, "start/worker.ts", "/readyz", env),
    async close() {
      await killAll(children);
      await prisma.$disconnect();
      await store.close();
      await storage.drop();
    },
  };
}
