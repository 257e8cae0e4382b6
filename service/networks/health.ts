import { NETWORK_IDS, NETWORK_LABELS, type NetworkId } from "../../lib/counts/all-networks.ts";
import type { NetworkGuard } from "./guard.ts";

/** One network's entry of `GET /v2/networks`. */
export interface NetworkHealthEntry {
  network: NetworkId;
  name: string;
  enabled: boolean;
  state: "ok" | "throttled" | "unavailable" | "credentials_rejected" | "disabled";
  retry_at: string | null;
  last_success_at: string | null;
  errors_last_hour: number;
  calls_last_hour: number;
  budget: { per_hour: number | null; used_last_hour: number };
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
          return { ...entry, enabled: false, state: "disabled", retry_at: null, last_success_at: null, errors_last_hour: 0, calls_last_hour: 0, budget: { per_hour: null, used_last_hour: 0 } };
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
          budget: { per_hour: health.budgetPerHour, used_last_hour: health.callsLastHour },
        };
      }),
    );
}
