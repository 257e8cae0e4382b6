import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { deleteKeysUnder } from "../../lib/redis/redis.ts";
import { freePort } from "./processes.ts";

/** The Redis server the scale-out tests use (see the stack guide); each test works under its own key prefix. */
export const REDIS_TEST_URL = process.env.REDIS_TEST_URL ?? "redis://127.0.0.1:6379";

/** Why Redis cannot be used (undefined when it answers), with a short connect timeout. */
export async function redisUnavailable(url = REDIS_TEST_URL, timeoutMs = 2_000): Promise<string | undefined> {
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: timeoutMs, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on("error", () => {});
  try {
    await redis.connect();
    await redis.ping();
    return undefined;
  } catch (error) {
    return `Redis is not reachable at ${url}: ${(error as Error).message || String(error)}`;
  } finally {
    redis.disconnect();
  }
}

/** A key prefix nobody else uses (REDIS_PREFIX), so tests sharing one Redis never see each other's keys. */
export function testRedisPrefix(): string {
  return `sctest-${randomBytes(5).toString("hex")}`;
}

/** Deletes every key under `prefix:`. */
export function dropRedisPrefix(prefix: string, url = REDIS_TEST_URL): Promise<void> {
  return deleteKeysUnder(url, prefix);
}

/** Why startOwnRedis cannot work here (no redis-server binary), or undefined. */
export function redisServerMissing(): string | undefined {
  const result = spawnSync("redis-server", ["--version"], { encoding: "utf8" });
  return result.error ? `redis-server cannot be run: ${result.error.message}` : undefined;
}

/**
 * A Redis server of the test's own (Debian's redis-server, without persistence), for tests that stop and
 * restart Redis: the shared one on 6379 must stay up for everyone else.
 */
export async function startOwnRedis(): Promise<{ url: string; restart(): Promise<void>; stop(): Promise<void> }> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
      stdio: "ignore",
    });
    const failed = new Promise<never>((_, reject) => child!.once("error", reject));
    for (let i = 0; i < 100; i++) {
      const why = await Promise.race([redisUnavailable(`redis://127.0.0.1:${port}`, 500), failed]);
      if (why === undefined) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`redis-server did not start on port ${port}`);
  };
  const stop = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGKILL");
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    async restart() {
      await stop();
      await start();
    },
    stop,
  };
}
