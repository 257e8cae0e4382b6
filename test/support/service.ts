import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { inject } from "vitest";
import { Accounts } from "../../lib/accounts/accounts.ts";
import { createPrisma } from "../../lib/db/prisma.ts";
import { KeyVault, loadServerSecret } from "../../lib/security/secrets.ts";
import { parseEnv, type Env } from "../../lib/env.ts";
import { apiListener } from "../../service/http/api-listener.ts";
import { createHttpServer } from "../../service/http/front-door.ts";
import { startRuntime, type RuntimeOptions, type ServiceRuntime } from "../../service/wiring.ts";
import type { SandboxKnobs, SandboxStats } from "../../service/sandbox/control.ts";
import { createScratchDatabase } from "./postgres.ts";
import { dropRedisPrefix, REDIS_TEST_URL, testRedisPrefix } from "./redis.ts";
import { QuotaClock } from "../../lib/quota/clock.ts";

/** `SHARECOUNT_TEST_STACK=scale` (the `scale` Vitest project): test services run on PostgreSQL + Redis. */
export const TEST_STACK: "sqlite" | "scale" = process.env.SHARECOUNT_TEST_STACK === "scale" ? "scale" : "sqlite";

/** With PostgreSQL the server secret is required (every process sharing the database must agree on it). */
const POSTGRES_TEST_SECRET = "sharecount-postgres-test-secret-".padEnd(48, "x");

/** A fresh database file copied from the migrated template. */
export function freshDatabase(): { url: string; dir: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sharecount-test-"));
  const file = path.join(dir, "test.db");
  fs.copyFileSync(inject("templateDatabase"), file);
  return { url: `file:${file}`, dir };
}

/**
 * The storage of one test service: a copy of the migrated SQLite template, or (in the `scale` project) a
 * PostgreSQL database created from the migrated template database and a Redis key prefix of its own;
 * `drop` removes them.
 */
export async function testDatabase(): Promise<{ url: string; env: Record<string, string>; drop(): Promise<void> }> {
  if (TEST_STACK === "scale") {
    const db = await createScratchDatabase("api", undefined, { template: inject("postgresTemplateDatabase") });
    const prefix = testRedisPrefix();
    return {
      url: db.url,
      env: { SHARECOUNT_SECRET: POSTGRES_TEST_SECRET, REDIS_URL: REDIS_TEST_URL, REDIS_PREFIX: prefix },
      drop: async () => {
        await db.drop();
        await dropRedisPrefix(prefix);
      },
    };
  }
  const { url, dir } = freshDatabase();
  return { url, env: {}, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export type TestService = Awaited<ReturnType<typeof startTestService>>;

/**
 * The real service (store, count service, worker, sandbox upstream) on an ephemeral port, with its own
 * database; `overrides` are environment variables as an operator would set them.
 */
export async function startTestService(overrides: Record<string, string> = {}, options: RuntimeOptions = {}) {
  const database = await testDatabase();
  // Mail without SMTP_URL is written as files: here, not into the checkout's data/mail.
  const mailDir = fs.mkdtempSync(path.join(os.tmpdir(), "sharecount-mail-"));
  const env: Env = parseEnv({
    DATABASE_URL: database.url,
    MAIL_DIR: mailDir,
    ...database.env,
    SHARECOUNT_NETWORKS: "sandbox",
    SANDBOX_LATENCY_MS: "0",
    QUOTA_TIMEZONE: "UTC",
    ...overrides,
  });
  const runtime: ServiceRuntime = await startRuntime(env, options);
  const server = createHttpServer(apiListener(runtime.routes));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const prisma = createPrisma(env.DATABASE_URL);
  const clock = new QuotaClock(env.QUOTA_TIMEZONE);
  const accounts = new Accounts(prisma, clock, runtime.store);
  const sandboxOrigin = runtime.sandbox!.origin;
  let accountSeq = 0;
  let runtimeStopped: Promise<void> | null = null;
  const stopRuntime = () => (runtimeStopped ??= runtime.close());

  return {
    baseUrl,
    env,
    runtime,
    prisma,
    clock,
    accounts,
    sandboxOrigin,
    get: (pathAndQuery: string, init?: RequestInit) => fetch(`${baseUrl}${pathAndQuery}`, init),
    /** A new account with a unique email on `plan`; returns its email and API key. */
    async account(plan = "business", options: { email?: string } = {}) {
      const email = options.email ?? `user${++accountSeq}-${Math.random().toString(36).slice(2, 8)}@example.com`;
      const { apiKey } = await accounts.create({ email, plan });
      return { email, apiKey };
    },
    async knobs(knobs: Partial<Record<keyof SandboxKnobs, Record<string, unknown>>>) {
      const res = await fetch(`${sandboxOrigin}/__sandbox/knobs`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(knobs),
      });
      if (!res.ok) throw new Error(`sandbox knobs refused: ${await res.text()}`);
    },
    async stats(): Promise<SandboxStats> {
      return (await fetch(`${sandboxOrigin}/__sandbox/stats`)).json() as Promise<SandboxStats>;
    },
    async resetSandbox() {
      await fetch(`${sandboxOrigin}/__sandbox/reset`, { method: "POST" });
    },
    /** Stops the runtime as SIGTERM does once requests have drained (what it holds is written); the database stays until close. */
    stopRuntime,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await stopRuntime();
      await prisma.$disconnect();
      await database.drop();
      fs.rmSync(mailDir, { recursive: true, force: true });
    },
  };
}

/** Today's quota day in UTC (the tests run the service with QUOTA_TIMEZONE=UTC). */
export function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}
