import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CADENCE, refreshInterval } from "../../lib/history/cadence.ts";
import type { Store } from "../../lib/store/store.ts";
import type { RefreshResult } from "../../service/counts/count-service.ts";
import { HistoryRecorder } from "../../service/history/recorder.ts";
import { RefreshScheduler, type SchedulerOptions } from "../../service/tracking/scheduler.ts";
import { postgresSkipReason, postgresStoreDatabase, sqliteStoreDatabase, twoStores } from "../support/stores.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe("the refresh cadence", () => {
  it("is hourly for a day, daily until day 30, weekly after", () => {
    const first = Date.UTC(2026, 0, 1);
    expect(refreshInterval(DEFAULT_CADENCE, first, first)).toBe(HOUR);
    expect(refreshInterval(DEFAULT_CADENCE, first, first + DAY - 1)).toBe(HOUR);
    expect(refreshInterval(DEFAULT_CADENCE, first, first + DAY)).toBe(DAY);
    expect(refreshInterval(DEFAULT_CADENCE, first, first + 30 * DAY - 1)).toBe(DAY);
    expect(refreshInterval(DEFAULT_CADENCE, first, first + 30 * DAY)).toBe(7 * DAY);
  });
});

const skipPostgres = (await postgresSkipReason("test/tracking/scheduler.test.ts")) !== undefined;
const drivers = [
  { name: "SQLite", database: sqliteStoreDatabase, skip: false },
  { name: "PostgreSQL", database: postgresStoreDatabase, skip: skipPostgres },
];

/** Networks that answer every form with the same numbers, counting the calls per URL. */
function fakeNetworks(calls: Map<string, number>, hang = false) {
  return {
    async refresh(url: string): Promise<RefreshResult> {
      calls.set(url, (calls.get(url) ?? 0) + 1);
      if (hang) await new Promise(() => {});
      const facebook = { total_count: 10, comment_count: 1, reaction_count: 4, share_count: 5, comment_plugin_count: 0 };
      return { values: { Facebook: facebook, Pinterest: 3 }, fetchedAt: 0, called: 2 };
    },
  };
}

describe.each(drivers)("the scheduler on the $name store", ({ database, skip }) => {
  const stores = twoStores(database, [{ name: "big", dailyQuota: 10, bulkBatchLimit: 0, customTtlAllowed: false, trackedUrlLimit: 100_000 }], skip);
  let a: Store;
  let b: Store;
  beforeAll(() => ({ a, b } = stores));
  let base = Date.UTC(2030, 0, 1);

  const scheduler = (store: Store, now: () => number, counts: SchedulerOptions["counts"], capacity = Infinity) =>
    new RefreshScheduler({
      tracked: store.tracked,
      history: store.history,
      recorder: new HistoryRecorder(store.history),
      counts,
      cadence: DEFAULT_CADENCE,
      now,
      capacity: async () => capacity,
      concurrency: 50,
      leaseMs: 60_000,
      pollMs: 10,
      hourlyDays: 30,
    });

  async function track(n: number, at: number, account?: string) {
    const owner = account ?? (await stores.account("big"));
    const urls = Array.from({ length: n }, (_, i) => `https://sched.example/${at}/${i}`);
    const ids = await a.history.idsOf(urls);
    await a.tracked.add(owner, [...ids.values()], 100_000, at);
    return { owner, urls };
  }

  describe.skipIf(skip)("", () => {
    it("two workers refresh each due URL exactly once, and leave it due by the cadence", async () => {
      base += 100 * DAY;
      const { owner, urls } = await track(120, base);
      const calls = new Map<string, number>();
      const now = () => base + 1_000;
      const x = scheduler(a, now, fakeNetworks(calls));
      const y = scheduler(b, now, fakeNetworks(calls));
      for (let round = 0; round < 10; round++) await Promise.all([x.round(), y.round()]);
      expect(urls.map((url) => calls.get(url))).toEqual(urls.map(() => 1));
      const page = await a.tracked.page(owner, { sort: "added", order: "asc", limit: 200 });
      for (const row of page.rows) expect(row).toMatchObject({ lastRefreshedAt: base + 1_000, nextRefreshAt: base + 1_000 + HOUR, total: 13 });
      // A day on, the next refresh is a day later.
      const later = () => base + DAY + 5_000;
      await scheduler(a, later, fakeNetworks(calls)).round();
      await scheduler(a, later, fakeNetworks(calls)).round();
      await scheduler(a, later, fakeNetworks(calls)).round();
      const row = (await a.tracked.page(owner, { sort: "added", order: "asc", limit: 1 })).rows[0]!;
      expect(row.nextRefreshAt).toBe(base + DAY + 5_000 + DAY);
    });

    it("a worker killed mid-refresh loses nothing: its URLs are refreshed once its lease runs out", async () => {
      base += 100 * DAY;
      const { urls } = await track(5, base);
      const calls = new Map<string, number>();
      let clock = base;
      const killed = scheduler(a, () => clock, fakeNetworks(new Map(), true));
      void killed.round();
      await new Promise((resolve) => setTimeout(resolve, 200));
      const survivor = scheduler(b, () => clock, fakeNetworks(calls));
      await survivor.round();
      expect(urls.filter((url) => calls.has(url))).toEqual([]);
      clock = base + 60_000;
      // Earlier tests' URLs are due again too: a few rounds reach these.
      for (let round = 0; round < 10; round++) await survivor.round();
      expect(urls.map((url) => calls.get(url))).toEqual(urls.map(() => 1));
    });

    it("takes no more than the budget allows, an account's most overdue first, and says how many are left due", async () => {
      base += 100 * DAY;
      // What earlier tests left due is leased away: only this account's URLs are due.
      await a.tracked.claimDue(base - 10, 1_000_000, 10 * DAY, "earlier");
      const { owner } = await track(10, base);
      const { urls } = await track(10, base + 1, owner);
      const calls = new Map<string, number>();
      const now = () => base + HOUR;
      await scheduler(a, now, fakeNetworks(calls), 0).round();
      expect(calls.size).toBe(0);
      const first = await scheduler(a, now, fakeNetworks(calls), 10).round();
      expect(first.refreshed).toBe(10);
      expect(urls.some((url) => calls.has(url))).toBe(false);
      expect(await a.tracked.backlog(owner, now())).toEqual({ due: 10, oldestDueAt: base + 1 });
    });
  });
});
