import type { KnownCountStore } from "../../lib/store/counts.ts";
import { freshValues, isEmpty, type ObservedValues } from "../../lib/history/observed.ts";
import type { CallPurpose, NetworkGuard } from "../networks/guard.ts";
import type { NetworkName, NetworkValues } from "../../lib/counts/values.ts";
import type { NetworkAdapter, NetworkOutcome } from "../networks/types.ts";
import type { CacheEntry, CountCache } from "./cache.ts";

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

export interface Network<N extends NetworkName = NetworkName> {
  adapter: NetworkAdapter<N>;
  guard: NetworkGuard;
}

/** Where every fresh answer of the networks goes: the URL's count history. */
export type ObservationSink = (url: string, at: number, values: ObservedValues) => Promise<void>;

/** A scheduled refresh's answer: `called` counts the networks actually asked (0: the budget allowed none). */
export interface RefreshResult {
  counts: CacheEntry["counts"];
  fetchedAt: number;
  called: number;
}

export interface CountServiceOptions {
  knownCounts: KnownCountStore;
  cache: CountCache;
  networks: { Facebook: Network<"Facebook">; Pinterest: Network<"Pinterest"> };
  defaultTtlSeconds: number;
  staleMaxAgeSeconds: number;
  /** Records what the networks answered fresh (not stale answers, not failures). */
  observations?: ObservationSink;
  /** A degraded answer (a network failed) is cached at most this long, so counts recover quickly. */
  degradedTtlSeconds?: number;
  now?: () => number;
}

/**
 * Answers counts for a normalized URL: from the cache while fresh, otherwise by asking every network in
 * parallel. Concurrent lookups of the same URL share one upstream call per network. A network that fails
 * reports its last known count (if young enough) rather than dropping to null, and never 0.
 */
export class CountService {
  private readonly inFlight = new Map<string, Promise<Fetched>>();
  private readonly now: () => number;

  constructor(private readonly options: CountServiceOptions) {
    this.now = options.now ?? Date.now;
  }

  /** `ttlSeconds`: the caller's cache time (custom_ttl); 0 fetches fresh and caches nothing. */
  async lookup(url: string, ttlSeconds?: number): Promise<CountLookup> {
    const now = this.now();
    const ttl = ttlSeconds ?? this.options.defaultTtlSeconds;
    const cached = ttl > 0 ? await this.options.cache.get(url) : undefined;
    if (cached && now < cached.expiresAt && now - cached.fetchedAt < ttl * 1000) return lookupOf(cached, "hit");
    const fetched = await this.fetchShared(url);
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
    const { fetched, called } = await this.fetchAll(url, "refresh");
    const entry: CacheEntry = { ...fetched, expiresAt: fetched.fetchedAt + this.cacheSeconds(fetched, this.options.defaultTtlSeconds) * 1000 };
    // Only a whole fresh answer replaces the cached one: a refresh the budget cut short must not make live
    // queries serve stale counts.
    if (called > 0 && !fetched.degraded) await this.options.cache.set(url, entry);
    return { counts: fetched.counts, fetchedAt: fetched.fetchedAt, called };
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

  private async fetchAll(url: string, purpose: CallPurpose): Promise<{ fetched: Fetched; called: number }> {
    const { Facebook, Pinterest } = this.options.networks;
    const [facebook, pinterest] = await Promise.all([this.fetchOne(url, Facebook, purpose), this.fetchOne(url, Pinterest, purpose)]);
    const stale = [facebook, pinterest].flatMap((r) => (r.stale ? [r.stale] : []));
    const fetched: Fetched = {
      counts: { Facebook: facebook.value, Pinterest: pinterest.value },
      fetchedAt: this.now(),
      stale,
      sandbox: facebook.sandbox || pinterest.sandbox,
      degraded: !facebook.fresh || !pinterest.fresh,
    };
    const fresh = freshValues(fetched.counts, stale.map((s) => s.network));
    if (this.options.observations && !isEmpty(fresh)) await this.options.observations(url, fetched.fetchedAt, fresh);
    return { fetched, called: Number(facebook.called) + Number(pinterest.called) };
  }

  private async fetchOne<N extends NetworkName>(url: string, network: Network<N>, purpose: CallPurpose) {
    const name = network.adapter.name;
    const admission = await network.guard.admit(url, purpose);
    const outcome: NetworkOutcome<NetworkValues[N]> =
      admission.refusal !== null
        ? { ok: false, failure: "throttled", detail: admission.refusal, sandbox: false }
        : // A fresh signal per call: combining one long-lived signal with per-call timeouts leaks in Node 20
          // (nodejs/node#55351). Adapters time out on their own, which bounds shutdown.
          await network.adapter.fetchCount(url, new AbortController().signal);
    if (admission.refusal === null) await network.guard.record(admission.ticket, outcome);
    const { knownCounts } = this.options;
    if (outcome.ok) {
      await knownCounts.save(url, name, outcome.value, this.now());
      return { value: outcome.value, fresh: true, stale: null, sandbox: outcome.sandbox, called: true };
    }
    const known = await knownCounts.get(url, name);
    const ageSeconds = known ? Math.floor((this.now() - known.fetchedAt) / 1000) : Infinity;
    if (known && ageSeconds <= this.options.staleMaxAgeSeconds) {
      return {
        value: known.value,
        fresh: false,
        stale: { network: name, ageSeconds },
        sandbox: outcome.sandbox,
        called: admission.refusal === null,
      };
    }
    return { value: null, fresh: false, stale: null, sandbox: outcome.sandbox, called: admission.refusal === null };
  }
}
