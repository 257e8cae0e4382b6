import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metricsRegistry } from "../../lib/metrics/metrics.ts";
import { startTestService, type TestService } from "../support/service.ts";

/*
 * The service's own metrics as /metrics exports them, after real requests to a real service (this test's
 * process is the service's: its registry is the one read here). Counters are compared before and after.
 */

let svc: TestService;
let clock = Date.now();
const now = () => clock;

beforeAll(async () => {
  // The refresh scheduler polls rarely: a tracked URL's lag is the clock's doing, not the scheduler's.
  svc = await startTestService({ REFRESH_POLL_MS: "600000" }, { now });
});
afterAll(() => svc.close());

/** A sample's value in the exported text (0 when the series does not exist yet). */
async function sample(name: string, labels: Record<string, string> = {}): Promise<number> {
  const text = await metricsRegistry.metrics();
  const wanted = Object.entries(labels);
  for (const line of text.split("\n")) {
    const match = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (wanted.every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return 0;
}

const countQuery = (url: string, apiKey: string) => svc.get(`/v1.0/?url=${encodeURIComponent(url)}&apikey=${apiKey}`);

describe("metrics", () => {
  it("count lookups: a miss asks each network once, a repeat is a hit, and a failing network's last value is stale", async () => {
    const { apiKey } = await svc.account("business");
    const url = `https://example.com/metrics-${Math.random().toString(36).slice(2)}`;
    const [miss, hit, stale, facebookOk, pinterestOk, facebookError] = await Promise.all([
      sample("sharecount_count_cache_total", { result: "miss" }),
      sample("sharecount_count_cache_total", { result: "hit" }),
      sample("sharecount_count_cache_total", { result: "stale" }),
      sample("sharecount_upstream_requests_total", { network: "facebook", outcome: "ok" }),
      sample("sharecount_upstream_requests_total", { network: "pinterest", outcome: "ok" }),
      sample("sharecount_upstream_requests_total", { network: "facebook", outcome: "error" }),
    ]);
    expect((await countQuery(url, apiKey)).status).toBe(200);
    expect((await countQuery(url, apiKey)).status).toBe(200);
    expect(await sample("sharecount_count_cache_total", { result: "miss" })).toBe(miss + 1);
    expect(await sample("sharecount_count_cache_total", { result: "hit" })).toBe(hit + 1);
    expect(await sample("sharecount_upstream_requests_total", { network: "facebook", outcome: "ok" })).toBe(facebookOk + 1);
    expect(await sample("sharecount_upstream_requests_total", { network: "pinterest", outcome: "ok" })).toBe(pinterestOk + 1);
    expect(await sample("sharecount_upstream_request_duration_seconds_count", { network: "facebook" })).toBeGreaterThanOrEqual(facebookOk + 1);

    // Past the cache's time, with Facebook failing: its last known value is served stale.
    clock += 2 * 3600_000;
    await svc.knobs({ facebook: { mode: "fail" } });
    try {
      expect((await countQuery(url, apiKey)).status).toBe(200);
    } finally {
      await svc.resetSandbox();
    }
    expect(await sample("sharecount_count_cache_total", { result: "stale" })).toBe(stale + 1);
    expect(await sample("sharecount_upstream_requests_total", { network: "facebook", outcome: "error" })).toBe(facebookError + 1);
  });

  it("quota refusals by plan, bulk URLs by outcome and the queue's depth", async () => {
    await svc.prisma.plan.create({ data: { name: "metrics-one", dailyQuota: 1, bulkBatchLimit: 10, customTtlAllowed: false } });
    const { apiKey } = await svc.account("metrics-one");
    const refused = await sample("sharecount_quota_refusals_total", { plan: "metrics-one" });
    expect((await countQuery("https://example.com/quota-a", apiKey)).status).toBe(200);
    expect((await countQuery("https://example.com/quota-b", apiKey)).status).toBe(401);
    expect(await sample("sharecount_quota_refusals_total", { plan: "metrics-one" })).toBe(refused + 1);

    // A new day: one URL of three is counted, then the job waits for the next reset.
    clock += 24 * 3600_000;
    const [done, paused, depth] = await Promise.all([
      sample("sharecount_bulk_urls_total", { outcome: "done" }),
      sample("sharecount_bulk_urls_total", { outcome: "paused" }),
      sample("sharecount_bulk_queue_depth"),
    ]);
    const body = ["https://example.com/bulk-1", "https://example.com/bulk-2", "https://example.com/bulk-3"].join("\n");
    expect((await svc.get(`/v1.0/bulk?apikey=${apiKey}`, { method: "POST", body })).status).toBe(200);
    // Workers count URLs side by side (BullMQ): a URL may find the quota used up before the one that used it is done.
    const outcomes = async () => ({
      done: (await sample("sharecount_bulk_urls_total", { outcome: "done" })) - done,
      paused: (await sample("sharecount_bulk_urls_total", { outcome: "paused" })) > paused,
    });
    await expect.poll(outcomes, { timeout: 15_000 }).toEqual({ done: 1, paused: true });
    expect(await sample("sharecount_bulk_queue_depth")).toBe(depth + 2);
  });

  it("tracked URLs, how overdue the most overdue one is, each network's state, and mail waiting in the outbox", async () => {
    const { apiKey } = await svc.account("business");
    const tracked = await sample("sharecount_tracked_urls");
    const urls = [`https://example.com/tracked-${Math.random().toString(36).slice(2)}`, `https://example.com/tracked-${Math.random().toString(36).slice(2)}`];
    const answer = await svc.get("/v2/tracked", {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ urls }),
    });
    expect(answer.status).toBe(200);
    expect(await sample("sharecount_tracked_urls")).toBe(tracked + 2);
    // Two hours on, every URL is overdue by an hour at least, whether or not it was refreshed meanwhile.
    clock += 2 * 3600_000;
    expect(await sample("sharecount_refresh_lag_seconds")).toBeGreaterThanOrEqual(3600);

    expect(await sample("sharecount_network_state", { network: "facebook", state: "ok" })).toBe(1);
    expect(await sample("sharecount_network_state", { network: "facebook", state: "throttled" })).toBe(0);

    const pending = await sample("sharecount_outbox_pending");
    await svc.prisma.mailMessage.create({
      data: { id: `metrics-${Date.now()}`, kind: "notice", recipient: "ops@example.com", payload: "{}", dueAt: new Date(clock + 86_400_000), createdAt: new Date(clock) },
    });
    expect(await sample("sharecount_outbox_pending")).toBe(pending + 1);
  });
});
