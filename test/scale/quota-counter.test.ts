import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectRedis } from "../../lib/redis/redis.ts";
import { RedisQuotaCounter } from "../../service/quota/redis-counter.ts";
import { openPostgresStore } from "../../lib/store/postgres/open.ts";
import type { Store } from "../../lib/store/store.ts";
import type { UsageStore } from "../../lib/store/usage.ts";
import { sleep } from "../support/processes.ts";
import { startTestService, type TestService } from "../support/service.ts";

/*
 * The Redis quota counter against what can go wrong between Redis and the database: a process killed
 * between reserving in Redis and recording in the database, and a counter that fell behind the database.
 */

const IDLE_MS = 300;
const DAY = "2026-03-01";
let svc: TestService;
let store: Store;
let redis: Redis;
let counter: RedisQuotaCounter;

beforeAll(async () => {
  svc = await startTestService({}, { worker: false });
  store = openPostgresStore(svc.env.DATABASE_URL);
  redis = connectRedis(svc.env.REDIS_URL!);
  counter = new RedisQuotaCounter(redis, store.usage, store.bulk, svc.env.REDIS_PREFIX, IDLE_MS);
});
afterAll(async () => {
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
  it("records every reservation in the database row before it resolves", async () => {
    const id = await accountId();
    const used = await Promise.all(Array.from({ length: 20 }, () => counter.reserve(id, DAY, 15)));
    expect(used.filter((u) => u !== null).sort((x, y) => x! - y!)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    expect(used.filter((u) => u === null)).toHaveLength(5);
    expect(await store.usage.queriesOn(id, DAY)).toBe(15);
    expect(await redis.hget(key(id), "n")).toBe("15");
  });

  it("gives back reservations of a process killed before recording them once the counter has been idle", async () => {
    const id = await accountId();
    for (let i = 0; i < 4; i++) await counter.reserve(id, DAY, 5);
    // A process reserved in Redis and died before its database write: Redis says 5, the row 4.
    await redis.hincrby(key(id), "n", 1);
    expect(await counter.reserve(id, DAY, 5)).toBeNull();
    await sleep(IDLE_MS + 100);
    expect(await counter.reserve(id, DAY, 5)).toBe(5);
    expect(await store.usage.queriesOn(id, DAY)).toBe(5);
    expect(await counter.reserve(id, DAY, 5)).toBeNull();
  });

  it("raises a counter that fell behind its database row, and lets the row have the last word at the quota", async () => {
    const id = await accountId();
    for (let i = 0; i < 3; i++) await counter.reserve(id, DAY, 5);
    // Re-seeded in a Redis restart while reservations counted by the old Redis were still being recorded.
    await redis.hset(key(id), "n", 1);
    await counter.reserve(id, DAY, 5);
    expect(await store.usage.queriesOn(id, DAY)).toBe(4);
    expect(await redis.hget(key(id), "n")).toBe("4");
    expect(await counter.reserve(id, DAY, 5)).toBe(5);
    // Redis lost four counts again: it would admit more than the quota the row already holds.
    await redis.hset(key(id), "n", 1);
    expect(await counter.reserve(id, DAY, 5)).toBeNull();
    expect(await store.usage.queriesOn(id, DAY)).toBe(5);
    expect(await redis.hget(key(id), "n")).toBe("5");
    expect(await counter.reserve(id, DAY, 5)).toBeNull();
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
    const shared = new RedisQuotaCounter(redis, failing, store.bulk, svc.env.REDIS_PREFIX, IDLE_MS);
    await shared.reserve(a, DAY, 10);
    const [forA, forB] = await Promise.allSettled([shared.reserve(a, DAY, 10), shared.reserve(b, DAY, 10)]);
    expect(forA).toEqual({ status: "fulfilled", value: 2 });
    expect(forB).toMatchObject({ status: "rejected", reason: { message: "row unreadable" } });
    expect(await store.usage.queriesOn(a, DAY)).toBe(2);
    expect(await redis.hget(key(a), "n")).toBe("2");
  });

  it("counts a bulk URL once when two workers complete it", async () => {
    const { apiKey, email } = await svc.account("business");
    const id = (await svc.prisma.account.findUniqueOrThrow({ where: { email } })).id;
    const submitted = await svc.get(`/v1.0/bulk?apikey=${apiKey}`, { method: "POST", body: "https://example.com/once" });
    const { bulk_id: jobId } = (await submitted.json()) as { bulk_id: string };
    const [item] = await store.bulk.queued({ id: jobId, accountId: id }, 0, 10);
    const outcomes = await Promise.all([1, 2].map(() => counter.completeBulkUrl(item!, { day: DAY, dailyQuota: 100 }, { counts: { Facebook: null, Pinterest: null } }, Date.now())));
    expect(outcomes.sort()).toEqual(["already_done", "completed"]);
    expect(await store.usage.queriesOn(id, DAY)).toBe(1);
    expect(await redis.hget(key(id), "n")).toBe("1");
  });
});
