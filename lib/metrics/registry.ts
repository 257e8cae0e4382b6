import { Registry, collectDefaultMetrics } from "prom-client";

/**
 * The process's Prometheus registry: one per process (a process has one /metrics), holding Node's default
 * process metrics and the service's own (metrics.ts, gauges.ts). Metrics are named per Prometheus's rules:
 * `sharecount_`, counters ending in `_total`, durations in seconds. Every label takes values from a bounded
 * set: route patterns, network names, plan names, fixed outcomes.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });
