import { BatchedCounter, BatchedHistogram } from "./batched-metrics.ts";
import { metricsRegistry } from "./registry.ts";

/* The service's counters and histograms, each with the verb that counts it (the gauges are in gauges.ts). */

const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const httpRequests = new BatchedCounter(
  { name: "sharecount_http_requests_total", help: "API requests answered, by route pattern, method and status.", labelNames: ["route", "method", "status"] },
  metricsRegistry,
);
const httpDurations = new BatchedHistogram(
  "sharecount_http_request_duration_seconds",
  "Time from a request's arrival to its answer being written, by route pattern.",
  "route",
  SECONDS,
  metricsRegistry,
);

/** Counts one answered request. `route` is a route pattern (`/v2/keys/:id`), never the raw path or the queried URL. */
export function observeHttpRequest(route: string, method: string, status: number, seconds: number): void {
  httpRequests.inc(`${route} ${method} ${status}`, () => ({ route, method, status: String(status) }));
  httpDurations.observe(route, seconds);
}

export type UpstreamOutcome = "ok" | "error" | "timeout" | "throttled" | "skipped_budget";

const upstreamRequests = new BatchedCounter(
  {
    name: "sharecount_upstream_requests_total",
    help: "Calls to the networks by outcome; skipped_budget: not made, the network's budget or backoff refused it.",
    labelNames: ["network", "outcome"],
  },
  metricsRegistry,
);
const upstreamDurations = new BatchedHistogram(
  "sharecount_upstream_request_duration_seconds",
  "Time a network took to answer a call (calls made only).",
  "network",
  SECONDS,
  metricsRegistry,
);

/** One call to a network, or one it was not asked (`skipped_budget`, with no duration). */
export function observeUpstream(network: string, outcome: UpstreamOutcome, seconds?: number): void {
  upstreamRequests.inc(`${network} ${outcome}`, () => ({ network, outcome }));
  if (seconds !== undefined) upstreamDurations.observe(network, seconds);
}

const countCache = new BatchedCounter(
  {
    name: "sharecount_count_cache_total",
    help: "Count lookups: hit (served from the cache), miss (the networks asked), stale (asked, and a failed network's last known value served).",
    labelNames: ["result"],
  },
  metricsRegistry,
);

export function countCacheLookup(result: "hit" | "miss" | "stale"): void {
  countCache.inc(result, () => ({ result }));
}

const quotaRefusals = new BatchedCounter(
  { name: "sharecount_quota_refusals_total", help: "Queries and bulk jobs refused for a used-up daily quota, by plan.", labelNames: ["plan"] },
  metricsRegistry,
);

export function countQuotaRefusal(plan: string): void {
  quotaRefusals.inc(plan, () => ({ plan }));
}

const bulkUrls = new BatchedCounter(
  {
    name: "sharecount_bulk_urls_total",
    help: "Bulk URLs a worker handled: done (counted and stored), paused (the account's quota is used up), gone (job or account deleted).",
    labelNames: ["outcome"],
  },
  metricsRegistry,
);

export function countBulkUrlOutcomes(outcome: "done" | "paused" | "gone", urls: number): void {
  if (urls > 0) bulkUrls.inc(outcome, () => ({ outcome }), urls);
}

const webhookDeliveries = new BatchedCounter(
  {
    name: "sharecount_webhook_deliveries_total",
    help: "Webhook POSTs recorded: delivered (a 2xx), failed (any other answer or none; retried on schedule).",
    labelNames: ["outcome"],
  },
  metricsRegistry,
);

export function countWebhookDelivery(outcome: "delivered" | "failed"): void {
  webhookDeliveries.inc(outcome, () => ({ outcome }));
}

export { readGaugesFrom, type GaugeReadings } from "./gauges.ts";
export { metricsRegistry } from "./registry.ts";
