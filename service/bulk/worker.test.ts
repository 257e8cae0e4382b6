import { describe, expect, it } from "vitest";
import type { CountService } from "../counts/count-service.ts";
import type { QuotaClock } from "../../lib/quota/clock.ts";
import type { QuotaCounter } from "../quota/counter.ts";
import type { PlanLimits } from "../../lib/store/accounts.ts";
import type { BulkStore, CountedItem, QueuedBulkUrl } from "../../lib/store/bulk.ts";
import type { AccountCache } from "../accounts/account-cache.ts";
import type { BulkCountDeps } from "./count-bulk-url.ts";
import { BulkWorker } from "./worker.ts";
import { JobNetworks } from "./job-networks.ts";

/**
 * One job of `size` URLs in a store and a count service that answer at once, with no I/O: as a job of URLs
 * whose counts are cached is counted. Only the parts of each the worker calls.
 */
function instantJob(size: number) {
  const job = { id: "job", accountId: "account", urlsCompleted: 0, createdAt: 0 };
  const queued: QueuedBulkUrl[] = Array.from({ length: size }, (_, i) => ({ id: i + 1, jobId: job.id, accountId: job.accountId, countUrl: `https://example.com/${i}` }));
  const done = new Set<number>();
  const bulk = {
    active: async () => (done.size < size ? [job] : []),
    queued: async (_job: unknown, afterId: number, limit: number) => queued.filter((u) => u.id > afterId && !done.has(u.id)).slice(0, limit),
    deleteExpired: async () => 0,
    networksOf: async () => null,
  } as unknown as BulkStore;
  const store = { bulk } as unknown as BulkCountDeps["store"];
  const quota = {
    used: async () => 0,
    completeBulkUrls: async (counted: CountedItem[]) =>
      counted.map(({ item }) => {
        done.add(item.id);
        return "completed";
      }),
  } as unknown as QuotaCounter;
  const counts = { lookup: async () => ({ counts: {} }) } as unknown as CountService;
  const clock = { today: () => ({ day: "2026-01-01", resetsAt: 0 }), now: () => Date.UTC(2026, 0, 1, 12) } as unknown as QuotaClock;
  const plans = { get: async () => ({ dailyQuota: 1_000_000 }) } as unknown as AccountCache<PlanLimits>;
  return { done, deps: { store, quota, counts, clock, plans, jobNetworks: new JobNetworks(bulk), history: { noteQueried: async () => {} }, quotaAlerts: { counted: () => {}, refused: () => {} }, urlCompleted: () => {} } };
}

describe("the bulk worker", () => {
  it("lets other work run between URLs even when every count answers at once (a job of cached URLs)", async () => {
    const { done, deps } = instantJob(2000);
    const worker = new BulkWorker({ ...deps, concurrency: 64, retentionDays: 7, pollMs: 10 });
    worker.start();
    // A request arriving now is served after at most a few URLs, not after the whole job.
    await new Promise((resolve) => setImmediate(resolve));
    expect(done.size).toBeLessThan(100);
    while (done.size < 2000) await new Promise((resolve) => setTimeout(resolve, 5));
    await worker.stop();
    expect(done.size).toBe(2000);
  });
});
