import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SandboxStats } from "../../service/sandbox/control.ts";
import { until } from "../support/processes.ts";
import { scaleDeployment } from "./deployment.ts";

/*
 * The refresh schedule across processes: two workers (`npm run start:worker`) refresh the tracked URLs of
 * one PostgreSQL database through leases. One is killed with SIGKILL mid-refresh; its URLs come back when
 * its lease runs out, and every URL ends refreshed, once per slot but for the ones it had in flight.
 */

// Small enough to finish in a few seconds on a busy machine, large enough that the kill lands mid-refresh.
const N = 120;
const CONCURRENCY = 4;
let deployment: Awaited<ReturnType<typeof scaleDeployment>>;

beforeAll(async () => {
  deployment = await scaleDeployment({
    SANDBOX_LATENCY_MS: "100",
    // Facebook and Pinterest alone: one round of upstream calls per refresh.
    SHARECOUNT_V2_NETWORKS: "none",
    REFRESH_POLL_MS: "100",
    REFRESH_LEASE_MS: "2000",
    REFRESH_CONCURRENCY: String(CONCURRENCY),
  });
});
afterAll(() => deployment?.close());

const stats = async (sandboxUrl: string) => (await (await fetch(`${sandboxUrl}/__sandbox/stats`)).json()) as SandboxStats;

describe("two refresh workers on PostgreSQL + Redis", () => {
  // Three processes start within the test, and the killed worker's lease must run out: 13–17 s here, so 30 s is too tight.
  it("refresh each due URL once between them; one killed by kill -9 mid-refresh loses nothing", async () => {
    const [api, a, b] = await Promise.all([deployment.api("api"), deployment.worker("worker-a"), deployment.worker("worker-b")]);
    const { apiKey } = await deployment.accounts.create({ email: "refresh-workers@example.com", plan: "business" });
    const urls = Array.from({ length: N }, (_, i) => `https://example.com/refresh-${i}`);
    const added = await fetch(`${api.url}/v2/tracked?apikey=${apiKey}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ urls }),
    });
    expect((await added.json()).added).toBe(N);
    const refreshed = () => deployment.prisma.trackedUrl.count({ where: { lastRefreshedAt: { not: null } } });
    await until("a third refreshed", refreshed, (n) => n >= N / 3, 60_000, [a.child, b.child]);

    const byA = await stats(a.sandboxUrl);
    a.child.process.kill("SIGKILL");
    expect(await a.child.exited).toEqual({ code: null, signal: "SIGKILL" });
    expect(Object.keys(byA.facebookByUrl).length).toBeGreaterThan(0);

    await until("every URL refreshed", refreshed, (n) => n === N, 90_000, [b.child]);
    const byB = await stats(b.sandboxUrl);
    const calls = urls.map((url) => (byA.facebookByUrl[url] ?? 0) + (byB.facebookByUrl[url] ?? 0));
    // Asked at least once each; twice only for what the killed worker had in flight (its answers never landed).
    expect(calls.every((n) => n >= 1 && n <= 2)).toBe(true);
    expect(calls.filter((n) => n === 2).length).toBeLessThanOrEqual(CONCURRENCY);
    const schedule = await deployment.prisma.refreshSchedule.findMany({ select: { lastRefreshedAt: true, nextRefreshAt: true, leaseUntil: true } });
    expect(schedule).toHaveLength(N);
    for (const slot of schedule) {
      expect(slot.leaseUntil).toBeNull();
      expect(Number(slot.nextRefreshAt) - Number(slot.lastRefreshedAt)).toBe(3_600_000);
    }
  }, 120_000);
});
