import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { redisCountCache, type CacheEntry } from "../../service/counts/cache.ts";
import { dropRedisPrefix, REDIS_TEST_URL, redisUnavailable, testRedisPrefix } from "../support/redis.ts";

const noRedis = await redisUnavailable();
const NOW = Date.UTC(2026, 10, 1, 12);

const entry = (facebook: number): CacheEntry => ({
  counts: { Facebook: { share_count: facebook, comment_count: 0, reaction_count: 0, total_count: facebook, comment_plugin_count: 0, og_object: null }, Pinterest: 1 },
  fetchedAt: NOW,
  stale: [],
  sandbox: true,
  degraded: false,
  expiresAt: NOW + 60_000,
});

describe.skipIf(noRedis !== undefined)("the count cache on Redis", () => {
  const prefix = testRedisPrefix();
  const redis = new Redis(REDIS_TEST_URL);
  afterAll(async () => {
    await dropRedisPrefix(prefix);
    redis.disconnect();
  });

  it("answers another process's entries, reading one turn's URLs in one MGET; a missing, foreign or garbled entry is a miss", async () => {
    const writer = redisCountCache(redis, prefix, 100, () => NOW);
    await writer.set("https://a.example/", entry(1));
    await writer.set("https://b.example/", entry(2));
    await redis.set(`${prefix}:count:https://foreign.example/`, JSON.stringify({ shape: "of another version" }));
    await redis.set(`${prefix}:count:https://garbled.example/`, "{not json");

    // Another process: nothing of these in its own memory.
    const reader = redisCountCache(redis, prefix, 100, () => NOW);
    const calls = { get: 0, mget: 0 };
    const spied = new Proxy(redis, {
      get(target, name, receiver) {
        if (name === "get" || name === "mget") calls[name]++;
        return Reflect.get(target, name, receiver);
      },
    });
    const turn = redisCountCache(spied, prefix, 100, () => NOW);
    const urls = ["https://a.example/", "https://missing.example/", "https://b.example/", "https://foreign.example/", "https://garbled.example/"];
    const answers = await Promise.all(urls.map((url) => turn.get(url)));
    expect(answers.map((answer) => answer?.counts.Facebook?.share_count)).toEqual([1, undefined, 2, undefined, undefined]);
    expect(calls).toEqual({ get: 0, mget: 1 });

    // A URL alone in its turn, and what was read is then held in memory.
    expect((await reader.get("https://b.example/"))?.counts.Pinterest).toBe(1);
    expect(await turn.get("https://a.example/")).toEqual(entry(1));
    expect(calls).toEqual({ get: 0, mget: 1 });
    expect(await turn.get("https://missing.example/")).toBeUndefined();
    expect(calls).toEqual({ get: 1, mget: 1 });
  });
});
