import type { KnownCountStore } from "../../lib/store/counts.ts";
import { engagementOf, freshValues, isEmpty, knownValues, type ObservedValues } from "../../lib/history/observed.ts";
import { keyOf, type AnyNetworkValues, type NetworkId, type NetworkKey } from "../../lib/counts/all-networks.ts";
import type { MoreNetworkName } from "../../lib/counts/more-networks.ts";
import type { FacebookCounts, NetworkName } from "../../lib/counts/values.ts";
import type { CallPurpose } from "../networks/guard.ts";
import { countCacheLookup } from "../../lib/metrics/metrics.ts";
import { andThen, type Maybe } from "../../lib/maybe.ts";
import type { CacheEntry, CountCache } from "./cache.ts";
import type { NetworkCacheEntry, NetworkCountCache } from "./network-cache.ts";
import { NetworkCounter, type Network, type NetworkCount } from "./network-counter.ts";

export interface CountLookup {
  counts: CacheEntry["counts"];
  /** `hit`: served from the cache; `miss`: fetched now; `bypass`: custom_ttl=0 asked for a fresh fetch. */
  cache: "hit" | "miss" | "bypass";
  fetchedAt: number;
  /** When this answer stops being fresh (what Expires and Cache-Control say). */
  expiresAt: number;
  /** Networks that failed and were answered with their last known count, with that count's age in seconds. */
  stale: { network: NetworkName; ageSeconds: number }[];
  sandbox: boolean;
}

type Fetched = Omit<CacheEntry, "expiresAt">;

/** A lookup's answer, field by field: spreading the cached entry into it cost more than the rest of a cache hit. */
function lookupOf(entry: CacheEntry, cache: CountLookup["cache"]): CountLookup {
  return { counts: entry.counts, cache, fetchedAt: entry.fetchedAt, expiresAt: entry.expiresAt, stale: entry.stale, sandbox: entry.sandbox };
}

/** Where every fresh answer of the networks goes: the URL's count history. */
export type ObservationSink = (url: string, at: number, values: ObservedValues) => Promise<void>;

/**
 * A scheduled refresh's answer: every network's value now known (fresh or stale); `called` counts the
 * networks actually asked (0: the budget allowed none).
 */
export interface RefreshResult {
  values: ObservedValues;
  fetchedAt: number;
  called: number;
}

/** One network's part of a v2 lookup: its value (null: unavailable), and its age when it is a stale one. */
export interface NetworkAnswer<V = unknown> {
  value: V | null;
  staleAgeSeconds: number | null;
  fetchedAt: number;
}

export type NetworksLookup = {
  answers: { [I in NetworkId]?: NetworkAnswer<AnyNetworkValues[ReturnType<typeof keyOf<I>>]> };
  /** When the oldest answer was fetched. */
  fetchedAt: number;
  sandbox: boolean;
};

/** The networks beyond Facebook and Pinterest that this service asks (SHARECOUNT_V2_NETWORKS). */
export type MoreNetworks = { [K in MoreNetworkName]?: Network<K> };

export interface CountServiceOptions {
  knownCounts: KnownCountStore;
  cache: CountCache;
  networks: { Facebook: Network<"Facebook">; Pinterest: Network<"Pinterest"> } & MoreNetworks;
  /** API v2's cache, one entry per network and URL. */
  networkCache: NetworkCountCache;
  defaultTtlSeconds: number;
  staleMaxAgeSeconds: number;
  /** Records what the networks answered fresh (not stale answers, not failures). */
  observations?: ObservationSink;
  /** A degraded answer (a network failed) is cached at most this long, so counts recover quickly. */
  degradedTtlSeconds?: number;
  now?: () => number;
}

/**
 * Answers counts for a normalized URL: from the cache while fresh, otherwise by asking the networks in
 * parallel. v1 (`lookup`) asks Facebook and Pinterest together; v2 (`lookupNetworks`) asks only the networks
 * named. Concurrent lookups of the same URL share one upstream call per network. A network that fails
 * reports its last known count (if young enough) rather than dropping to null, and never 0.
 */
export class CountService {
  private readonly inFlight = new Map<string, Promise<Fetched>>();
  private readonly now: () => number;
  private readonly counters: { [K in NetworkKey]?: NetworkCounter<K> } = {};
  /** Every network this service asks, in display order. */
  readonly enabled: readonly NetworkId[];

  constructor(private readonly options: CountServiceOptions) {
    this.now = options.now ?? Date.now;
    const counter = <K extends NetworkKey>(network: Network<K>) => new NetworkCounter(network, options.knownCounts, options.staleMaxAgeSeconds, this.now);
    const { Facebook, Pinterest, ...more } = options.networks;
    this.counters.Facebook = counter(Facebook);
    this.counters.Pinterest = counter(Pinterest);
    for (const network of Object.values(more) as Network<MoreNetworkName>[]) {
      (this.counters as Record<string, NetworkCounter<NetworkKey>>)[network.adapter.name] = counter(network);
    }
    this.enabled = (["facebook", "pinterest", "reddit", "hackernews", "bluesky", "vk", "ok", "tumblr"] as const).filter(
      (id) => this.counters[keyOf(id)] !== undefined,
    );
  }

  private counter<K extends NetworkKey>(key: K): NetworkCounter<K> {
    return this.counters[key] as NetworkCounter<K>;
  }

  /**
   * `ttlSeconds`: the caller's cache time (custom_ttl); 0 fetches fresh and caches nothing. A cached answer
   * this process holds is returned at once (see Maybe).
   */
  lookup(url: string, ttlSeconds?: number): Maybe<CountLookup> {
    const now = this.now();
    const ttl = ttlSeconds ?? this.options.defaultTtlSeconds;
    if (ttl <= 0) return this.fetchAndCache(url, ttl);
    return andThen(this.options.cache.get(url), (cached) => {
      if (!cached || now >= cached.expiresAt || now - cached.fetchedAt >= ttl * 1000) return this.fetchAndCache(url, ttl);
      countCacheLookup("hit");
      return lookupOf(cached, "hit");
    });
  }

  private async fetchAndCache(url: string, ttl: number): Promise<CountLookup> {
    const fetched = await this.fetchShared(url);
    countCacheLookup(fetched.stale.length > 0 ? "stale" : "miss");
    const entry: CacheEntry = { ...fetched, expiresAt: fetched.fetchedAt + this.cacheSeconds(fetched, ttl) * 1000 };
    if (ttl > 0) await this.options.cache.set(url, entry);
    return lookupOf(entry, ttl > 0 ? "miss" : "bypass");
  }

  private cacheSeconds(fetched: Fetched, ttl: number): number {
    return fetched.degraded ? Math.min(ttl, this.options.degradedTtlSeconds ?? 60) : ttl;
  }

  /**
   * A scheduled refresh: the networks are asked within the refresh share of their budgets, and a fresh
   * answer replaces the cached one (live queries get it too). Never spends an account's quota.
   */
  async refresh(url: string): Promise<RefreshResult> {
    const more = this.enabled.filter((id) => id !== "facebook" && id !== "pinterest").map(keyOf);
    const [{ fetched, called, fresh }, others] = await Promise.all([
      this.fetchAll(url, "refresh", false),
      Promise.all(more.map((key) => this.counter(key).count(url, "refresh"))),
    ]);
    const entry: CacheEntry = { ...fetched, expiresAt: fetched.fetchedAt + this.cacheSeconds(fetched, this.options.defaultTtlSeconds) * 1000 };
    // Only a whole fresh answer replaces the cached one: a refresh the budget cut short must not make live
    // queries serve stale counts.
    if (called > 0 && !fetched.degraded) await this.options.cache.set(url, entry);
    const values = knownValues(fetched.counts);
    const freshOnes: ObservedValues = { ...fresh };
    await Promise.all(
      more.map(async (key, i) => {
        const count = others[i]!;
        if (count.value !== null) (values as Record<string, unknown>)[key] = count.value;
        if (count.fresh) {
          (freshOnes as Record<string, unknown>)[key] = count.value;
          await this.options.networkCache.set(url, key, this.networkEntry(count, fetched.fetchedAt, this.options.defaultTtlSeconds));
        }
      }),
    );
    await this.observe(url, fetched.fetchedAt, freshOnes);
    return { values, fetchedAt: fetched.fetchedAt, called: called + others.filter((c) => c.called).length };
  }

  /**
   * API v2: the named networks only, each from its own cache entry while fresh (or from v1's entry, which
   * holds Facebook and Pinterest together), the others asked now. Networks this service does not ask are
   * left out of the answer.
   */
  async lookupNetworks(url: string, ids: readonly NetworkId[], ttlSeconds?: number): Promise<NetworksLookup> {
    const ttl = ttlSeconds ?? this.options.defaultTtlSeconds;
    const wanted = ids.filter((id) => this.enabled.includes(id));
    const answers: NetworksLookup["answers"] = {};
    let sandbox = false;
    let rest = wanted;
    const classic = wanted.filter((id): id is "facebook" | "pinterest" => id === "facebook" || id === "pinterest");
    // Both: v1's lookup, which shares its cache entry. One: v1's entry when it is fresh (each Facebook call
    // spends its per-URL budget), else that network alone.
    const both = classic.length === 2 ? await this.lookup(url, ttl) : classic.length === 1 && ttl > 0 ? await this.freshCombined(url, ttl) : undefined;
    if (both) {
      for (const id of classic) {
        const key = keyOf(id);
        const stale = both.stale.find((s) => s.network === key);
        (answers as Record<string, NetworkAnswer>)[id] = { value: both.counts[key], staleAgeSeconds: stale ? stale.ageSeconds : null, fetchedAt: both.fetchedAt };
      }
      sandbox = both.sandbox;
      rest = wanted.filter((id) => id !== "facebook" && id !== "pinterest");
    }
    const keys = rest.map(keyOf) as NetworkKey[];
    const now = this.now();
    const cached = ttl > 0 ? await this.options.networkCache.getMany(url, keys) : new Map<NetworkKey, NetworkCacheEntry>();
    const usable = (entry: NetworkCacheEntry | undefined) => entry !== undefined && now < entry.expiresAt && now - entry.fetchedAt < ttl * 1000;
    const missing = keys.filter((key) => !usable(cached.get(key)));
    for (let i = keys.length - missing.length; i > 0; i--) countCacheLookup("hit");
    const counted = await Promise.all(missing.map((key) => this.counter(key).count(url, "live")));
    for (const count of counted) countCacheLookup(count.staleAgeSeconds !== null ? "stale" : "miss");
    const fetchedAt = this.now();
    const fresh: ObservedValues = {};
    await Promise.all(
      missing.map(async (key, i) => {
        const count = counted[i]!;
        if (count.fresh) (fresh as Record<string, unknown>)[key] = this.observed(key, count.value);
        const entry = this.networkEntry(count, fetchedAt, ttl);
        if (ttl > 0) await this.options.networkCache.set(url, key, entry);
        cached.set(key, entry);
      }),
    );
    await this.observe(url, fetchedAt, fresh);
    rest.forEach((id, i) => {
      const entry = cached.get(keys[i]!)!;
      sandbox ||= entry.sandbox;
      (answers as Record<string, NetworkAnswer>)[id] = { value: entry.value, staleAgeSeconds: entry.staleAgeSeconds, fetchedAt: entry.fetchedAt };
    });
    const times = Object.values(answers).map((a) => a!.fetchedAt);
    return { answers, fetchedAt: times.length > 0 ? Math.min(...times) : fetchedAt, sandbox };
  }

  /** v1's cached answer (Facebook and Pinterest together), while it is fresh for `ttl`. */
  private async freshCombined(url: string, ttl: number): Promise<CacheEntry | undefined> {
    const cached = await this.options.cache.get(url);
    const now = this.now();
    return cached && now < cached.expiresAt && now - cached.fetchedAt < ttl * 1000 ? cached : undefined;
  }

  /** History keeps Facebook's numbers without its og_object. */
  private observed(key: NetworkKey, value: unknown): unknown {
    return key === "Facebook" ? engagementOf(value as FacebookCounts) : value;
  }

  /** A network's answer as cached: a fresh one for the caller's time, any other only briefly (it may recover). */
  private networkEntry(count: NetworkCount<unknown>, fetchedAt: number, ttl: number): NetworkCacheEntry {
    const seconds = count.fresh ? ttl : Math.min(ttl, this.options.degradedTtlSeconds ?? 60);
    return { value: count.value, fetchedAt, expiresAt: fetchedAt + seconds * 1000, staleAgeSeconds: count.staleAgeSeconds, sandbox: count.sandbox };
  }

  private async observe(url: string, at: number, values: ObservedValues): Promise<void> {
    if (this.options.observations && !isEmpty(values)) await this.options.observations(url, at, values);
  }

  private fetchShared(url: string): Promise<Fetched> {
    let pending = this.inFlight.get(url);
    if (!pending) {
      pending = this.fetchAll(url, "live")
        .then((result) => result.fetched)
        .finally(() => this.inFlight.delete(url));
      this.inFlight.set(url, pending);
    }
    return pending;
  }

  private async fetchAll(url: string, purpose: CallPurpose, observe = true): Promise<{ fetched: Fetched; called: number; fresh: ObservedValues }> {
    const [facebook, pinterest] = await Promise.all([this.counter("Facebook").count(url, purpose), this.counter("Pinterest").count(url, purpose)]);
    const stale: Fetched["stale"] = [];
    if (facebook.staleAgeSeconds !== null) stale.push({ network: "Facebook", ageSeconds: facebook.staleAgeSeconds });
    if (pinterest.staleAgeSeconds !== null) stale.push({ network: "Pinterest", ageSeconds: pinterest.staleAgeSeconds });
    const fetched: Fetched = {
      counts: { Facebook: facebook.value, Pinterest: pinterest.value },
      fetchedAt: this.now(),
      stale,
      sandbox: facebook.sandbox || pinterest.sandbox,
      degraded: !facebook.fresh || !pinterest.fresh,
    };
    const fresh = freshValues(fetched.counts, stale.map((s) => s.network));
    if (observe) await this.observe(url, fetched.fetchedAt, fresh);
    return { fetched, called: Number(facebook.called) + Number(pinterest.called), fresh };
  }
}
