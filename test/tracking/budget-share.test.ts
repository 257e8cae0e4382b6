import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sleep } from "../support/processes.ts";
import { startTestService, type TestService } from "../support/service.ts";

/**
 * Scheduled refreshes take at most REFRESH_BUDGET_SHARE of each network's hourly budget, counted where the
 * calls land (the sandbox's stats), and live queries keep the rest.
 */
let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({
    // 600 refreshes an hour each, at most 10 a minute.
    FACEBOOK_APP_CALLS_PER_HOUR: "1200",
    PINTEREST_APP_CALLS_PER_HOUR: "1200",
    REFRESH_BUDGET_SHARE: "0.5",
    REFRESH_POLL_MS: "100",
    // Facebook and Pinterest only: the other networks' budgets are their own (each network is refreshed
    // within its own share).
    SHARECOUNT_V2_NETWORKS: "none",
  });
});
afterAll(() => svc?.close());

describe("the refresh share of the budget", () => {
  it("is never exceeded (a minute's worth a minute), the schedule waits, and live queries still get the rest", async () => {
    const { apiKey } = await svc.account("plus");
    await svc.resetSandbox();
    const urls = Array.from({ length: 40 }, (_, i) => `https://budget.example.com/p/${i}`);
    const res = await svc.get(`/v2/tracked?apikey=${apiKey}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ urls }) });
    expect((await res.json()).added).toBe(40);

    // Rounds run every 100 ms: a second is many rounds, each finding the share used up.
    let calls = -1;
    for (let stable = 0; stable < 10; ) {
      await sleep(200);
      const now = (await svc.stats()).facebook.calls;
      stable = now === calls ? stable + 1 : 0;
      calls = now;
    }
    const stats = await svc.stats();
    expect(stats.facebook.calls).toBe(10);
    expect(stats.pinterest.calls).toBe(10);
    const status = await (await svc.get(`/v2/tracked/status?apikey=${apiKey}`)).json();
    expect(status).toMatchObject({ tracked: 40, due: 30 });

    const live = await (await svc.get(`/v1.1/?url=${encodeURIComponent("https://budget.example.com/live")}&apikey=${apiKey}`)).json();
    expect(live.Facebook.total_count).toEqual(expect.any(Number));
    expect(live.Pinterest).toEqual(expect.any(Number));
    expect((await svc.stats()).facebook.calls).toBe(11);
  });
});
