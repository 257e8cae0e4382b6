import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRuntime } from "../../service/wiring.ts";
import { freePort, killAll, startChild, until } from "../support/processes.ts";
import { REQUIRE_SERVICES } from "../support/postgres.ts";
import { redisServerMissing, startOwnRedis } from "../support/redis.ts";
import { startTestService, todayUtc, type TestService } from "../support/service.ts";

/*
 * Redis restarted mid-day, losing everything it held (no persistence): the quota used today is not reset
 * (the counters are re-seeded from the database) and queued bulk URLs are not lost (the workers offer the
 * database's queued URLs again). The test runs its own redis-server, so the shared one stays up.
 */

// Without the binary (Redis in a container, say) this file skips, unless REQUIRE_SERVICES=1 (CI).
const missing = redisServerMissing();
const skip = missing !== undefined && !REQUIRE_SERVICES;
if (skip) console.warn(`[skipped] test/scale/redis-restart.test.ts: ${missing} (REQUIRE_SERVICES=1 makes this a failure)`);

let redis: Awaited<ReturnType<typeof startOwnRedis>>;
let svc: TestService;

beforeAll(async () => {
  if (skip) return;
  redis = await startOwnRedis();
  // No worker in this process: the second test starts one only after Redis lost the queue.
  svc = await startTestService({ REDIS_URL: redis.url }, { worker: false });
});
afterAll(async () => {
  await svc?.close();
  await redis?.stop();
});

const count = (apiKey: string, i: number) =>
  svc.get(`/v1.0/?url=${encodeURIComponent(`https://example.com/restart-${i % 5}`)}&apikey=${apiKey}`);

/** Restarts the Redis server (or starts it again after stop()), with nothing in it. */
async function restartRedis() {
  await redis.restart();
  // The service's connections find the new server on their own.
  await until("the service to reach Redis again", async () => (await svc.get("/v1.0/status")).status, (s) => s === 200, 30_000);
}

describe.skipIf(skip)("Redis restarted mid-day", () => {
  it("answers 503 while Redis is down, never a 500, and recovers when it is back", async () => {
    const { apiKey } = await svc.account("free");
    expect((await count(apiKey, 0)).status).toBe(200);
    await redis.stop();
    try {
      const down = await count(apiKey, 1);
      expect(down.status).toBe(503);
      expect(await down.json()).toMatchObject({ Type: "service_unavailable" });
      expect((await svc.get("/v1.0/status")).status).toBe(503);
    } finally {
      await restartRedis();
    }
    expect((await count(apiKey, 2)).status).toBe(200);
    // The refused query was not counted.
    expect((await (await svc.get(`/v1.0/quota?apikey=${apiKey}`)).json()).quota_used_today).toBe(2);
  });

  it("does not reset the quota used today", async () => {
    const { apiKey } = await svc.account("free");
    const before = await Promise.all(Array.from({ length: 300 }, (_, i) => count(apiKey, i)));
    expect(before.every((r) => r.status === 200)).toBe(true);

    await restartRedis();
    expect(await (await svc.get(`/v1.0/quota?apikey=${apiKey}`)).json()).toMatchObject({ quota_used_today: 300, quota_remaining_today: 200 });

    const after = await Promise.all(Array.from({ length: 300 }, (_, i) => count(apiKey, i)));
    const ok = after.filter((r) => r.status === 200);
    expect(ok).toHaveLength(200);
    expect(after.filter((r) => r.status === 401)).toHaveLength(100);
    const remaining = ok.map((r) => Number(r.headers.get("x-quota-remaining"))).sort((x, y) => x - y);
    expect(remaining).toEqual(Array.from({ length: 200 }, (_, i) => i));
    const usage = await (await svc.get(`/v1.0/usage?apikey=${apiKey}`)).json();
    expect(usage[todayUtc()].queries).toBe(500);
  });

  it("a worker told to stop while Redis is down exits anyway, within its deadline", async () => {
    const { apiKey } = await svc.account("business");
    const urls = Array.from({ length: 200 }, (_, i) => `https://example.com/stop-without-redis-${i}`);
    const submitted = await svc.get(`/v1.0/bulk?apikey=${apiKey}`, { method: "POST", body: urls.join("\n") });
    const { bulk_id: bulkId } = (await submitted.json()) as { bulk_id: string };
    const { DATABASE_URL, REDIS_URL, REDIS_PREFIX, SHARECOUNT_SECRET } = svc.env;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...{ DATABASE_URL, REDIS_URL, REDIS_PREFIX, SHARECOUNT_SECRET, HOST: "127.0.0.1", PORT: String(await freePort()) },
      ...{ SHARECOUNT_NETWORKS: "sandbox", SANDBOX_LATENCY_MS: "500", BULK_CONCURRENCY: "4", STOP_DEADLINE_SECONDS: "2" },
    };
    delete env.NODE_OPTIONS;
    delete env.SHARECOUNT_TEST_STACK;
    const worker = startChild("worker", "start/worker.ts", env);
    try {
      const retrieve = async () => (await svc.get(`/v1.0/bulk?bulk_id=${bulkId}&apikey=${apiKey}`)).json();
      await until("the worker to count URLs", retrieve, (r) => r._meta.urls_completed > 0, 30_000, [worker]);
      await redis.stop();
      const stopped = Date.now();
      worker.process.kill("SIGTERM");
      const exit = await worker.exited;
      // Its work cannot be handed back without Redis: it gives up at its deadline (2 s) and says so.
      expect(Date.now() - stopped).toBeGreaterThanOrEqual(2_000);
      expect(Date.now() - stopped).toBeLessThan(8_000);
      expect(exit).toEqual({ code: 1, signal: null });
      expect(worker.output.join("")).toContain("could not stop within 2 s; exiting anyway");
    } finally {
      await killAll([worker]);
      await restartRedis();
    }
  });

  it("does not lose queued bulk URLs: the workers enqueue them again", async () => {
    // The API alone stores and enqueues the job; Redis then loses the queue before any worker ran.
    const { apiKey } = await svc.account("business");
    const urls = Array.from({ length: 50 }, (_, i) => `https://example.com/requeued-${i}`);
    const submitted = await svc.get(`/v1.0/bulk?apikey=${apiKey}`, { method: "POST", body: urls.join("\n") });
    const { bulk_id: bulkId } = (await submitted.json()) as { bulk_id: string };
    expect(svc.runtime.worker).toBeNull();
    await restartRedis();

    const worker = await startRuntime(svc.env, { worker: true });
    try {
      const retrieve = async () => (await svc.get(`/v1.0/bulk?bulk_id=${bulkId}&apikey=${apiKey}`)).json();
      const done = await until("the job to complete", retrieve, (r) => r._meta.completed, 30_000);
      expect(done._meta).toMatchObject({ urls_completed: 50, urls_queued: 50, completed: true });
      expect(Object.keys(done.data).sort()).toEqual([...urls].sort());
      expect((await (await svc.get(`/v1.0/quota?apikey=${apiKey}`)).json()).quota_used_today).toBe(50);
    } finally {
      await worker.close();
    }
  });
});
