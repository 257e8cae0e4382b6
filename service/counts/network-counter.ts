import { idOf, type AnyNetworkValues, type NetworkKey } from "../../lib/counts/all-networks.ts";
import type { KnownCountStore } from "../../lib/store/counts.ts";
import type { CallPurpose, NetworkGuard } from "../networks/guard.ts";
import type { UpstreamOutcome } from "../networks/upstream.ts";
import { observeUpstream, type UpstreamOutcome as MetricOutcome } from "../../lib/metrics/metrics.ts";

/** What asking one network about one URL gave. */
export interface NetworkCount<V> {
  /** The fresh value, the last known one when the network failed (stale), or null. */
  value: V | null;
  fresh: boolean;
  /** Set when `value` is a last known value: its age. */
  staleAgeSeconds: number | null;
  sandbox: boolean;
  /** Whether the network was actually asked (false: the guard refused the call). */
  called: boolean;
}

/** Any network's adapter: never throws; failures may say how long the network asked us to wait. */
export interface CountingAdapter<K extends NetworkKey> {
  readonly name: K;
  fetchCount(url: string, signal?: AbortSignal): Promise<UpstreamOutcome<AnyNetworkValues[K]>>;
}

export interface Network<K extends NetworkKey = NetworkKey> {
  adapter: CountingAdapter<K>;
  guard: NetworkGuard;
}

/**
 * Asks one network about URLs, behind its guard: concurrent asks for the same URL and purpose share one
 * call; a good answer is kept as the URL's last known value, which a failure falls back to while it is
 * younger than `staleMaxAgeSeconds` (stale-if-error), never to 0.
 */
export class NetworkCounter<K extends NetworkKey> {
  private readonly inFlight = new Map<string, Promise<NetworkCount<AnyNetworkValues[K]>>>();

  constructor(
    readonly network: Network<K>,
    private readonly knownCounts: KnownCountStore,
    private readonly staleMaxAgeSeconds: number,
    private readonly now: () => number,
  ) {}

  get name(): K {
    return this.network.adapter.name;
  }

  count(url: string, purpose: CallPurpose): Promise<NetworkCount<AnyNetworkValues[K]>> {
    const key = `${purpose} ${url}`;
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.ask(url, purpose).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  private async ask(url: string, purpose: CallPurpose): Promise<NetworkCount<AnyNetworkValues[K]>> {
    const { adapter, guard } = this.network;
    const admission = await guard.admit(url, purpose);
    const called = admission.refusal === null;
    let outcome: UpstreamOutcome<AnyNetworkValues[K]>;
    if (admission.refusal !== null) {
      outcome = { ok: false, failure: "throttled", detail: admission.refusal, sandbox: false };
      observeUpstream(idOf(adapter.name), "skipped_budget");
    } else {
      const started = performance.now();
      // No caller's signal: adapters time out on their own, which bounds shutdown, and joining a signal to
      // each call's timeout (AbortSignal.any) cost more than the rest of the call's bookkeeping.
      outcome = await adapter.fetchCount(url);
      observeUpstream(idOf(adapter.name), metricOutcome(outcome), (performance.now() - started) / 1000);
      await guard.record(admission.ticket, outcome);
    }
    if (outcome.ok) {
      await this.knownCounts.save(url, adapter.name, outcome.value, this.now());
      return { value: outcome.value, fresh: true, staleAgeSeconds: null, sandbox: outcome.sandbox, called };
    }
    const known = await this.knownCounts.get(url, adapter.name);
    const ageSeconds = known ? Math.floor((this.now() - known.fetchedAt) / 1000) : Infinity;
    if (known && ageSeconds <= this.staleMaxAgeSeconds) {
      return { value: known.value, fresh: false, staleAgeSeconds: ageSeconds, sandbox: outcome.sandbox, called };
    }
    return { value: null, fresh: false, staleAgeSeconds: null, sandbox: outcome.sandbox, called };
  }
}

/** A call's outcome as the upstream metric names it: a network with no count for the URL has answered. */
function metricOutcome(outcome: UpstreamOutcome<unknown>): MetricOutcome {
  if (outcome.ok || outcome.failure === "unreported") return "ok";
  if (outcome.failure === "timeout" || outcome.failure === "throttled") return outcome.failure;
  return "error";
}
