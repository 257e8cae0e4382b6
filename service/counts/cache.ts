import type { Redis } from "ioredis";
import { LRUCache } from "lru-cache";
import { z } from "zod";
import { storedCountsSchema } from "../../lib/counts/values.ts";
import type { Maybe } from "../../lib/maybe.ts";
import { perTick } from "../../lib/store/per-tick.ts";
import { parseJson } from "../networks/upstream.ts";

/** A count answer as cached: what the networks said, and until when it may be served. */
const cacheEntrySchema = z.object({
  counts: storedCountsSchema,
  fetchedAt: z.number(),
  /** Networks that failed and were answered with their last known count, with that count's age in seconds. */
  stale: z.array(z.object({ network: z.enum(["Facebook", "Pinterest"]), ageSeconds: z.number() })),
  sandbox: z.boolean(),
  /** Any network that did not give a fresh count: such answers are cached only briefly. */
  degraded: z.boolean(),
  expiresAt: z.number(),
});
export type CacheEntry = z.infer<typeof cacheEntrySchema>;

/** Where count answers are cached between lookups: this process's memory, or Redis shared by every process. */
export interface CountCache {
  /** At once when this process holds the answer (see Maybe). */
  get(url: string): Maybe<CacheEntry | undefined>;
  set(url: string, entry: CacheEntry): Promise<void>;
}

export function memoryCountCache(maxUrls: number): CountCache {
  const cache = new LRUCache<string, CacheEntry>({ max: maxUrls });
  return {
    get(url) {
      return cache.get(url);
    },
    async set(url, entry) {
      cache.set(url, entry);
    },
  };
}

/** How long a process keeps an answer it read from Redis: popular URLs cost no round trip on most requests. */
const LOCAL_MS = 1000;

/**
 * The count cache shared by every API process and bulk worker: an answer fetched by one is served by all
 * until it expires (Redis expires it at the same moment). Each process keeps what it read for up to a
 * second, which also keeps one object per answer so its JSON is built once.
 */
export function redisCountCache(redis: Redis, prefix: string, maxUrls: number, now: () => number = Date.now): CountCache {
  const local = new LRUCache<string, CacheEntry>({ max: Math.min(maxUrls, 10_000), ttl: LOCAL_MS, ttlAutopurge: false });
  const key = (url: string) => `${prefix}:count:${url}`;
  const entryOf = (url: string, raw: string | null): CacheEntry | undefined => {
    if (raw === null) return undefined;
    // Another version of the service may have written it: an entry of another shape is a miss, and fails no
    // other URL read in the same MGET.
    const parsed = cacheEntrySchema.safeParse(parseJson(raw));
    if (!parsed.success) return undefined;
    const entry = parsed.data;
    local.set(url, entry, { ttl: Math.max(1, Math.min(LOCAL_MS, entry.expiresAt - now())) });
    return entry;
  };
  // A turn's reads in one MGET: a bulk worker looks up many URLs at once.
  const read = perTick(async (urls: string[]) => {
    const raws = urls.length === 1 ? [await redis.get(key(urls[0]!))] : await redis.mget(urls.map(key));
    return urls.map((url, i) => entryOf(url, raws[i] ?? null));
  });
  return {
    get(url) {
      return local.get(url) ?? read(url);
    },
    async set(url, entry) {
      const ms = entry.expiresAt - now();
      if (ms <= 0) return;
      local.set(url, entry, { ttl: Math.min(LOCAL_MS, ms) });
      await redis.set(key(url), JSON.stringify(entry), "PX", ms);
    },
  };
}
