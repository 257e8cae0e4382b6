import type { Redis } from "ioredis";
import { LRUCache } from "lru-cache";
import { z } from "zod";
import { networkSchemas, type AnyNetworkValues, type NetworkKey } from "../../lib/counts/all-networks.ts";

/**
 * One network's answer for one URL as cached for API v2, which asks only the networks a request names
 * (v1's answers, Facebook and Pinterest together, have their own cache entry: cache.ts).
 */
export interface NetworkCacheEntry<V = unknown> {
  value: V | null;
  fetchedAt: number;
  expiresAt: number;
  staleAgeSeconds: number | null;
  sandbox: boolean;
}

export interface NetworkCountCache {
  /** The entries held for these networks of one URL (missing ones are absent). */
  getMany<K extends NetworkKey>(url: string, networks: readonly K[]): Promise<Map<K, NetworkCacheEntry<AnyNetworkValues[K]>>>;
  set(url: string, network: NetworkKey, entry: NetworkCacheEntry): Promise<void>;
}

const entryFields = {
  fetchedAt: z.number(),
  expiresAt: z.number(),
  staleAgeSeconds: z.number().nullable(),
  sandbox: z.boolean(),
};

const keyOf = (network: NetworkKey, url: string) => `${network} ${url}`;

export function memoryNetworkCache(maxEntries: number): NetworkCountCache {
  const cache = new LRUCache<string, NetworkCacheEntry>({ max: maxEntries });
  return {
    async getMany(url, networks) {
      const found = new Map();
      for (const network of networks) {
        const entry = cache.get(keyOf(network, url));
        if (entry) found.set(network, entry);
      }
      return found;
    },
    async set(url, network, entry) {
      cache.set(keyOf(network, url), entry);
    },
  };
}

/** Shared by every process: one key per network and URL, read for all named networks in one MGET. */
export function redisNetworkCache(redis: Redis, prefix: string, now: () => number = Date.now): NetworkCountCache {
  const key = (network: NetworkKey, url: string) => `${prefix}:ncount:${network}:${url}`;
  return {
    async getMany(url, networks) {
      const found = new Map();
      if (networks.length === 0) return found;
      const raw = await redis.mget(networks.map((network) => key(network, url)));
      networks.forEach((network, i) => {
        const text = raw[i];
        if (!text) return;
        // Another version of the service may have written it: an entry of another shape is a miss.
        const parsed = z.object({ ...entryFields, value: networkSchemas[network].nullable() }).safeParse(JSON.parse(text));
        if (parsed.success) found.set(network, parsed.data);
      });
      return found;
    },
    async set(url, network, entry) {
      const ms = entry.expiresAt - now();
      if (ms > 0) await redis.set(key(network, url), JSON.stringify(entry), "PX", ms);
    },
  };
}
