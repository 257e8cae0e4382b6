import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectRedis } from "../../lib/redis/redis.ts";
import { NetworkGuard } from "../../service/networks/guard.ts";
import { dropRedisPrefix, REDIS_TEST_URL, testRedisPrefix } from "../support/redis.ts";

/*
 * The networks limit the app, not each process: two guards on one Redis (two processes) share the budgets
 * and the backoff.
 */

const prefix = testRedisPrefix();
const redisA = connectRedis(REDIS_TEST_URL);
const redisB = connectRedis(REDIS_TEST_URL);

beforeAll(async () => {
  await Promise.all([redisA.ping(), redisB.ping()]);
});
afterAll(async () => {
  redisA.disconnect();
  redisB.disconnect();
  await dropRedisPrefix(prefix);
});

describe("NetworkGuard on Redis", () => {
  it("shares the per-URL and app-wide budgets between processes", async () => {
    const options = { perUrlPerHour: 3, appPerHour: 5 };
    const a = new NetworkGuard({ kind: "redis", redis: redisA, prefix: `${prefix}:budgets` }, options);
    const b = new NetworkGuard({ kind: "redis", redis: redisB, prefix: `${prefix}:budgets` }, options);
    const url = "https://example.com/shared";
    expect(await a.refusal(url)).toBeNull();
    expect(await b.refusal(url)).toBeNull();
    expect(await a.refusal(url)).toBeNull();
    expect(await b.refusal(url)).toBe("per-URL budget used up");
    expect(await a.refusal("https://example.com/other")).toBeNull();
    expect(await b.refusal("https://example.com/third")).toBeNull();
    expect(await a.refusal("https://example.com/fourth")).toBe("app-wide budget used up");
  });

  it("makes every process back off after one of them was throttled, longer each time, until a good answer", async () => {
    const a = new NetworkGuard({ kind: "redis", redis: redisA, prefix: `${prefix}:backoff` });
    const b = new NetworkGuard({ kind: "redis", redis: redisB, prefix: `${prefix}:backoff` });
    expect(await b.refusal("https://example.com/x")).toBeNull();
    await a.record({ ok: false, failure: "throttled" });
    expect(await b.refusal("https://example.com/x")).toMatch(/^backing off after throttling for (29|30) s$/);
    // Other failures are not throttling: no change.
    await b.record({ ok: false, failure: "timeout" });
    expect(await a.refusal("https://example.com/y")).toMatch(/for (29|30) s$/);
    await b.record({ ok: false, failure: "throttled" });
    expect(await a.refusal("https://example.com/y")).toMatch(/for (59|60) s$/);
    // A good answer resets the next pause to the initial one (the current pause still runs).
    await a.record({ ok: true });
    await b.record({ ok: false, failure: "throttled" });
    expect(await a.refusal("https://example.com/z")).toMatch(/for (29|30) s$/);
  });
});
