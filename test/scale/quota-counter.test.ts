import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectRedis } from "../../lib/redis/redis.ts";
import { RedisQuotaCounter } from "../../service/quota/redis-counter.ts";
import { openPostgresStore } from "../../lib/store/postgres/open.ts";
import type { Store } from "../../lib/store/store.ts";
import type { UsageStore } from "../../lib/store/usage.ts";
import { startTestService, type TestService } from "../support/service.ts";

/*
 * The Redis quota counter: Redis holds the day's count, written to the database rows by each process's
 * flush (every second; here only when the test flushes), and what can go wrong between them: a process killed
 * before its flush, and a Redis that lost its counters.
 */

/** Longer than any test: the tests flush themselves. */
const FLUSH_MS = 600_000;
const DAY = "2026-03-01";
let svc: TestService;
let store: Store;
let redis: Redis;
let counter: RedisQuotaCounter;

beforeAll(async () => {
  svc = await startTestService({}, { worker: false });
  store = openPostgresStore(svc.env.DATABASE_URL);
  redis = connectRedis(svc.env.REDIS_URL!);
  counter = new RedisQuotaCounter(redis, store.usage, store.bulk, svc.env.REDIS_PREFIX, FLUSH_MS);
});
afterAll(async () => {
  await counter?.close();
  redis?.disconnect();
  await store?.close();
  await svc?.close();
});

async function accountId() {
  const { email } = await svc.account("free");
  return (await svc.prisma.account.findUniqueOrThrow({ where: { email } })).id;
}
const key = (id: string) => `${svc.env.REDIS_PREFIX}:quota:${DAY}:${id}`;

describe("RedisQuotaCounter", () => {
  it("counts in Redis, within the quota, and writes Redis's total to the row when it flushes", async () => {
    const id = await accountId();
    const used = await Promise.all(Array.from({ length: 20 }, () => counter.reserve(id, DAY, 15)));
    expect(used.filter((u) => u !== null).sort((x, y) => x! - y!)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    expect(used.filter((u) => u === null)).toHaveLength(5);
    expect(await redis.hget(key(id), "n")).toBe("15");
    expect(await store.usage.queriesOn(id, DAY)).toBe(0);
    await counter.flush();
    expect(await store.usage.queriesOn(id, DAY)).toBe(15);
    expect(await counter.used(id, DAY)).toBe(15);
  });

  it("a process killed before its flush: its queries stay counted, and the next process to count for the account writes them", async () => {
    const id = await accountId();
    await counter.reserve(id, DAY, 5);
    await counter.flush();
    // Another process counted two queries in Redis and died before its flush.
    await redis.hincrby(key(id), "n", 2);
    expect(await store.usage.queriesOn(id, DAY)).toBe(1);
    expect(await counter.reserve(id, DAY, 5)).toBe(4);
    await counter.flush();
    expect(await store.usage.queriesOn(id, DAY)).toBe(4);
    expect(await counter.reserve(id, DAY, 5)).toBe(5);
    expect(await counter.reserve(id, DAY, 5)).toBeNull();
  });

  it("a counter lost in a Redis restart is seeded from the row, and a row never goes below what it recorded", async () => {
    const id = await accountId();
    for (let i = 0; i < 3; i++) await counter.reserve(id, DAY, 5);
    await counter.flush();
    await redis.del(key(id));
    expect(await counter.reserve(id, DAY, 5)).toBe(4);
    expect(await counter.reserve(id, DAY, 5)).toBe(5);
    await counter.flush();
    // Redis lost counts again: what pays per item writes its row at once, which has the last word, and Redis is raised to it.
    await redis.hset(key(id), "n", 1);
    expect(await counter.reserveUpTo(id, DAY, 5, 1, 1)).toBe(0);
    expect(await redis.hget(key(id), "n")).toBe("5");
    await counter.flush();
    expect(await store.usage.queriesOn(id, DAY)).toBe(5);
  });

  it("keeps the reservations of other accounts when one account's counter fails in the same turn", async () => {
    const [a, b] = [await accountId(), await accountId()];
    // B's counter cannot be seeded: reading its database row fails.
    const failing: UsageStore = new Proxy(store.usage, {
      get: (target, name) =>
        name === "queriesOn"
          ? (id: string, day: string) => (id === b ? Promise.reject(new Error("row unreadable")) : target.queriesOn(id, day))
          : Reflect.get(target, name),
    });
    const shared = new RedisQuotaCounter(redis, failing, store.bulk, svc.env.REDIS_PREFIX, FLUSH_MS);
    await shared.reserve(a, DAY, 10);
    const [forA, forB] = await Promise.allSettled([shared.reserve(a, DAY, 10), shared.reserve(b, DAY, 10)]);
    expect(forA).toEqual({ status: "fulfilled", value: 2 });
    expect(forB).toMatchObject({ status: "rejected", reason: { message: "row unreadable" } });
    await shared.close();
    expect(await store.usage.queriesOn(a, DAY)).toBe(2);
    expect(await redis.hget(key(a), "n")).toBe("2");
  });

  it("answers other accounts' reservations while one account's counter waits for its row to be read", async () => {
    const [a, b] = [await accountId(), await accountId()];
    let release: () => void = () => {};
    const rowRead = new Promise<void>((resolve) => (release = resolve));
    const slow: UsageStore = new Proxy(store.usage, {
      get: (target, name) =>
        name === "queriesOn" ? async (id: string, day: string) => (id === b ? rowRead.then(() => target.queriesOn(id, day)) : target.queriesOn(id, day)) : Reflect.get(target, name),
    });
    const shared = new RedisQuotaCounter(redis, slow, store.bulk, svc.env.REDIS_PREFIX, FLUSH_MS);
    try {
      await shared.reserve(a, DAY, 10);
      // B's counter is missing: its seeding waits for the row, and A's reservations, in the same batch and after, do not.
      const forB = shared.reserve(b, DAY, 10);
      expect(await shared.reserve(a, DAY, 10)).toBe(2);
      expect(await shared.reserve(a, DAY, 10)).toBe(3);
      release();
      expect(await forB).toBe(1);
    } finally {
      release();
      await shared.close();
    }
  });

  it("counts a bulk URL once when two workers complete it", async () => {
    const { apiKey, email } = await svc.account("business");
    const id = (await svc.prisma.account.findUniqueOrThrow({ where: { email } })).id;
    const submitted = await svc.get(`/v1.0/bulk?apikey=${apiKey}`, { method: "POST", body: "https://example.com/once" });
    const { bulk_id: jobId } = (await submitted.json()) as { bulk_id: string };
    const [item] = await store.bulk.queued({ id: jobId, accountId: id }, 0, 10);
    const counted = [{ item: item!, result: { counts: { Facebook: null, Pinterest: null } } }];
    const outcomes = await Promise.all([1, 2].map(() => counter.completeBulkUrls(counted, { day: DAY, dailyQuota: 100 }, Date.now())));
    expect(outcomes.flat().sort()).toEqual(["already_done", "completed"]);
    expect(await store.usage.queriesOn(id, DAY)).toBe(1);
    expect(await redis.hget(key(id), "n")).toBe("1");
  });
});
