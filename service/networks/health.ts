import { NETWORK_IDS, NETWORK_LABELS, type NetworkId } from "../../lib/counts/all-networks.ts";
import type { NetworkReason } from "../../lib/v2/reasons.ts";
import type { CallPurpose, NetworkGuard } from "./guard.ts";

/** One network's entry of `GET /v2/networks`. */
export interface NetworkHealthEntry {
  network: NetworkId;
  name: string;
  enabled: boolean;
  state: "ok" | "throttled" | "unavailable" | "credentials_rejected" | "budget_exhausted" | "disabled";
  retry_at: string | null;
  last_success_at: string | null;
  errors_last_hour: number;
  calls_last_hour: number;
  skipped_last_hour: number;
  budget: { per_hour: number | null; used_last_hour: number; refresh_per_hour: number | null; refresh_used_last_hour: number };
}

const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());

/**
 * Every network's health, enabled or not, in display order: what operators and users look at when counts
 * are null or stale. With Redis, the figures are every process's together (the guards share their state).
 */
export function networkHealthReport(guards: { [I in NetworkId]?: NetworkGuard }): () => Promise<NetworkHealthEntry[]> {
  return () =>
    Promise.all(
      NETWORK_IDS.map(async (network): Promise<NetworkHealthEntry> => {
        const guard = guards[network];
        const entry = { network, name: NETWORK_LABELS[network] };
        if (!guard) {
          const budget = { per_hour: null, used_last_hour: 0, refresh_per_hour: null, refresh_used_last_hour: 0 };
          return { ...entry, enabled: false, state: "disabled", retry_at: null, last_success_at: null, errors_last_hour: 0, calls_last_hour: 0, skipped_last_hour: 0, budget };
        }
        const health = await guard.health();
        return {
          ...entry,
          enabled: true,
          state: health.state,
          retry_at: iso(health.retryAt),
          last_success_at: iso(health.lastSuccessAt),
          errors_last_hour: health.errorsLastHour,
          calls_last_hour: health.callsLastHour,
          skipped_last_hour: health.skippedLastHour,
          budget: {
            per_hour: health.budgetPerHour,
            used_last_hour: health.callsLastHour,
            refresh_per_hour: health.refreshPerHour,
            refresh_used_last_hour: health.refreshUsedLastHour,
          },
        };
      }),
    );
}

/** Why a network has no fresh value, as API v2's network objects say it. */
export interface Unavailability {
  reason: NetworkReason;
  retry_at: string | null;
}

const REASONS: Record<Exclude<NetworkHealthEntry["state"], "ok">, NetworkReason> = {
  budget_exhausted: "budget",
  throttled: "throttled",
  unavailable: "upstream_error",
  credentials_rejected: "credentials_rejected",
  disabled: "not_configured",
};

/**
 * Each network that is not ok now, with why and (where known) when it is asked again. For a live lookup a spent
 * refresh share is no reason: live queries do not take from it.
 */
export function unavailability(entries: readonly NetworkHealthEntry[], purpose: CallPurpose): Map<NetworkId, Unavailability> {
  const reasons = new Map<NetworkId, Unavailability>();
  for (const entry of entries) {
    if (entry.state === "ok" || (purpose === "live" && entry.state === "budget_exhausted")) continue;
    reasons.set(entry.network, { reason: REASONS[entry.state], retry_at: entry.retry_at });
  }
  return reasons;
}

const later = (a: string | null, b: string | null) => (a === null ? b : b === null || Date.parse(a) >= Date.parse(b) ? a : b);

/**
 * Why one answer's network has no fresh value: the network's state now (`unavailability`) where that is not ok,
 * else `otherwise`, what the answer itself tells (a failed answer since recovered, a URL not counted yet).
 * `notBefore`: when the URL is asked again at the earliest (a tracked URL's next refresh).
 */
export function whyNot(states: ReadonlyMap<NetworkId, Unavailability>, otherwise: NetworkReason, notBefore: string | null = null) {
  return (network: NetworkId): Unavailability => {
    const state = states.get(network) ?? { reason: otherwise, retry_at: null };
    // Rejected credentials and a network not set up wait for an operator: no time is known.
    if (state.reason === "credentials_rejected" || state.reason === "not_configured") return state;
    return { reason: state.reason, retry_at: later(state.retry_at, notBefore) };
  };
}
