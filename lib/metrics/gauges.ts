import { Gauge } from "prom-client";
import { metricsRegistry } from "./registry.ts";
import { log } from "../log/log.ts";

/**
 * What the gauges read when /metrics is asked for: the state of the database and the networks, as the
 * process that runs the workers sees it (every such process reports the same values: take their max).
 */
export interface GaugeReadings {
  bulkQueueDepth(): Promise<number>;
  trackedUrls(): Promise<number>;
  /** How overdue the most overdue tracked URL is, in seconds (0: none is). */
  refreshLagSeconds(): Promise<number>;
  networkStates(): Promise<{ network: string; state: string }[]>;
  outboxPending(): Promise<number>;
}

export const NETWORK_STATES = ["ok", "throttled", "unavailable", "credentials_rejected", "budget_exhausted", "disabled"] as const;

let current: GaugeReadings | null = null;

/** Makes the gauges read `readings` (the runtime that runs the workers); the returned function stops that. */
export function readGaugesFrom(readings: GaugeReadings): () => void {
  current = readings;
  return () => {
    if (current === readings) current = null;
  };
}

/** A gauge set from one reading at each scrape; without readings, or when the reading fails, it has no value. */
function readGauge(name: string, help: string, read: (readings: GaugeReadings) => Promise<number>): void {
  new Gauge({
    name,
    help,
    registers: [metricsRegistry],
    async collect() {
      this.reset();
      if (current === null) return;
      try {
        this.set(await read(current));
      } catch (error) {
        log.error({ event: "metrics_read_error", metric: name, err: error });
      }
    },
  });
}

readGauge("sharecount_bulk_queue_depth", "Bulk URLs queued and not yet counted, paused jobs' included.", (r) => r.bulkQueueDepth());
readGauge("sharecount_tracked_urls", "URLs tracked by at least one account.", (r) => r.trackedUrls());
readGauge("sharecount_refresh_lag_seconds", "How overdue the most overdue tracked URL's refresh is.", (r) => r.refreshLagSeconds());
readGauge("sharecount_outbox_pending", "Mail in the outbox not yet sent (or given up on).", (r) => r.outboxPending());

new Gauge({
  name: "sharecount_network_state",
  help: "Each network's state: 1 for the current one, 0 for the others.",
  labelNames: ["network", "state"],
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    if (current === null) return;
    try {
      for (const { network, state } of await current.networkStates()) {
        for (const each of NETWORK_STATES) this.set({ network, state: each }, each === state ? 1 : 0);
      }
    } catch (error) {
      log.error({ event: "metrics_read_error", metric: "sharecount_network_state", err: error });
    }
  },
});
