import { beforeAll, describe, expect, it } from "vitest";
import type { ObservedValues } from "../../lib/history/observed.ts";
import type { Store } from "../../lib/store/store.ts";
import type { TrackedSummary } from "../../lib/store/tracked.ts";
import { postgresSkipReason, postgresStoreDatabase, sqliteStoreDatabase, twoStores, type StoreDatabase } from "../support/stores.ts";

/** The history and tracked-URL concerns, one contract run unchanged on both stores (two stores stand for two processes). */
const skipPostgres = (await postgresSkipReason("test/store/history-contract.test.ts")) !== undefined;
const drivers = [
  { name: "SQLite", database: sqliteStoreDatabase, skip: false },
  { name: "PostgreSQL", database: postgresStoreDatabase, skip: skipPostgres },
];

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** A fixed day (2026-03-01T00:00Z): the store takes every time from its caller. */
const T0 = Date.UTC(2026, 2, 1);

const fb = (total: number) => ({ total_count: total, comment_count: 0, reaction_count: total, share_count: 0, comment_plugin_count: 0 });
const values = (facebook: number | null, pinterest: number | null): ObservedValues => ({
  ...(facebook === null ? {} : { Facebook: fb(facebook) }),
  ...(pinterest === null ? {} : { Pinterest: pinterest }),
});
/** An observation of all eight networks (Reddit's score may be negative). */
const everyNetwork = (n: number): ObservedValues => ({
  ...values(n, n + 1),
  reddit: { score: -n, comments: n + 2, posts: 3 },
  hackernews: { points: n + 3, comments: n + 4, stories: 2 },
  bluesky: { likes: n + 5, reposts: n + 6, replies: n + 7, quotes: n + 8, posts: 4 },
  vk: { count: n + 9 },
  ok: { count: n + 10 },
  tumblr: { notes: n + 11 },
});
const summary = (total: number | null, change7d: number | null = null): TrackedSummary => ({
  latest: values(total, null),
  total,
  change7d,
  change30d: null,
});

describe.each(drivers)("the $name store's history and tracked URLs", ({ database, skip }) => {
  const stores = twoStores(
    database,
    [
      { name: "small", dailyQuota: 100, bulkBatchLimit: 0, customTtlAllowed: false, trackedUrlLimit: 3 },
      { name: "big", dailyQuota: 100, bulkBatchLimit: 0, customTtlAllowed: false, trackedUrlLimit: 100_000 },
    ],
    skip,
  );
  const { account } = stores;
  let a: Store;
  let b: Store;
  let db: StoreDatabase;
  beforeAll(() => ({ a, b, db } = stores));
  let seq = 0;
  const urls = (n: number) => Array.from({ length: n }, () => `https://site.example/page-${++seq}`);
  const ids = async (list: string[]) => [...(await a.history.idsOf(list)).values()];

  describe.skipIf(skip)("history", () => {
    it("gives each URL one id, from either process", async () => {
      const [u] = urls(1);
      const first = await a.history.idsOf([u!, u!]);
      const again = await b.history.idsOf([u!]);
      expect(again.get(u!)).toBe(first.get(u!));
      expect(await b.history.idOf(u!)).toBe(first.get(u!));
      expect(await a.history.idOf("https://never.example/")).toBeNull();
    });

    it("gives two processes adding the same new URLs at once the same ids, every URL answered", async () => {
      for (let round = 0; round < 5; round++) {
        const list = urls(40);
        const [fromA, fromB] = await Promise.all([a.history.idsOf(list), b.history.idsOf([...list].reverse())]);
        expect([...fromA.keys()].sort()).toEqual([...list].sort());
        expect(list.map((u) => fromB.get(u))).toEqual(list.map((u) => fromA.get(u)));
      }
    });

    it("keeps one point per hour: a newer observation replaces the networks it holds and keeps the others, and the earliest time", async () => {
      const [id] = await ids(urls(1));
      await a.history.record([{ urlId: id!, at: T0 + 10 * 60_000, values: values(5, 1) }]);
      await b.history.record([{ urlId: id!, at: T0 + 50 * 60_000, values: values(7, null) }]);
      // Arriving late, an older observation only fills in what the point lacks.
      await a.history.record([{ urlId: id!, at: T0 + 5 * 60_000, values: values(3, 9) }]);
      await a.history.record([{ urlId: id!, at: T0 + HOUR + 1, values: values(8, 2) }]);
      // The merged point says when its oldest observation was made: whoever came after that may not read it.
      expect(await b.history.points(id!, T0, T0 + 2 * HOUR)).toEqual([
        { at: T0 + 50 * 60_000, values: values(7, 1), firstAt: T0 + 5 * 60_000 },
        { at: T0 + HOUR + 1, values: values(8, 2) },
      ]);
      expect(await a.history.points(id!, T0 + 51 * 60_000, T0 + 2 * HOUR)).toEqual([{ at: T0 + HOUR + 1, values: values(8, 2) }]);
      expect(await a.history.pointAtOrBefore(id!, T0 + HOUR)).toEqual({ at: T0 + 50 * 60_000, values: values(7, 1), firstAt: T0 + 5 * 60_000 });
      expect(await a.history.pointAtOrBefore(id!, T0 + 40 * 60_000)).toBeNull();
      expect(await a.history.pointAtOrBefore(id!, T0 + 3 * HOUR)).toEqual({ at: T0 + HOUR + 1, values: values(8, 2) });
    });

    it("records a batch as if one at a time, in order: several URLs, and one URL's hour more than once", async () => {
      const [x, y] = await ids(urls(2));
      await a.history.record([
        { urlId: x!, at: T0 + 10 * 60_000, values: values(5, 1) },
        { urlId: y!, at: T0 + 10 * 60_000, values: values(6, null) },
        { urlId: x!, at: T0 + 50 * 60_000, values: values(7, null) },
        { urlId: x!, at: T0 + 5 * 60_000, values: values(3, 9) },
        { urlId: x!, at: T0 + HOUR + 1, values: values(8, 2) },
      ]);
      expect(await b.history.points(x!, T0, T0 + 2 * HOUR)).toEqual([
        { at: T0 + 50 * 60_000, values: values(7, 1), firstAt: T0 + 5 * 60_000 },
        { at: T0 + HOUR + 1, values: values(8, 2) },
      ]);
      expect(await b.history.points(y!, T0, T0 + 2 * HOUR)).toEqual([{ at: T0 + 10 * 60_000, values: values(6, null) }]);
      // More than one statement's worth of URLs.
      const many = await ids(urls(450).map((u) => `${u}/many`));
      await a.history.record(many.map((urlId, i) => ({ urlId: urlId!, at: T0, values: values(i, null) })));
      const points = await b.history.pointsOfMany(many.map((id) => id!), T0, T0 + HOUR);
      expect(many.map((id) => points.get(id!)?.[0]?.values)).toEqual(many.map((_, i) => values(i, null)));
    });

    it("reads back an observation of all eight networks exactly", async () => {
      const [id] = await ids(urls(1));
      await a.history.record([{ urlId: id!, at: T0 + 60_000, values: everyNetwork(5_000_000_000) }]);
      expect(await b.history.points(id!, T0, T0 + HOUR)).toEqual([{ at: T0 + 60_000, values: everyNetwork(5_000_000_000) }]);
      expect(await b.history.pointAtOrBefore(id!, T0 + HOUR)).toEqual({ at: T0 + 60_000, values: everyNetwork(5_000_000_000) });
    });

    it("merges the six networks by the same rule: a newer observation of Reddit alone keeps the others", async () => {
      const [id] = await ids(urls(1));
      await a.history.record([{ urlId: id!, at: T0 + 10 * 60_000, values: everyNetwork(1) }]);
      await b.history.record([{ urlId: id!, at: T0 + 20 * 60_000, values: { reddit: { score: 40, comments: 41, posts: 2 } } }]);
      // Arriving late, an older Tumblr observation fills in nothing: the point has Tumblr already.
      await a.history.record([{ urlId: id!, at: T0 + 5 * 60_000, values: { tumblr: { notes: 999 }, Pinterest: 999 } }]);
      const [point] = await b.history.points(id!, T0, T0 + HOUR);
      expect(point).toEqual({ at: T0 + 20 * 60_000, values: { ...everyNetwork(1), reddit: { score: 40, comments: 41, posts: 2 } }, firstAt: T0 + 5 * 60_000 });
      // An older observation does fill in a network the point lacks.
      const [other] = await ids(urls(1));
      await a.history.record([{ urlId: other!, at: T0 + 30 * 60_000, values: values(2, null) }]);
      await b.history.record([{ urlId: other!, at: T0 + 25 * 60_000, values: { vk: { count: 7 }, Facebook: fb(1) } }]);
      expect((await a.history.points(other!, T0, T0 + HOUR))[0]).toEqual({ at: T0 + 30 * 60_000, values: { Facebook: fb(2), vk: { count: 7 } }, firstAt: T0 + 25 * 60_000 });
    });

    it("keeps numbers beyond 32 bits", async () => {
      const [id] = await ids(urls(1));
      await a.history.record([{ urlId: id!, at: T0, values: values(5_000_000_000, 3_000_000_000) }]);
      expect((await b.history.points(id!, T0, T0 + 1))[0]!.values).toEqual(values(5_000_000_000, 3_000_000_000));
    });

    it("reads several URLs' points at once", async () => {
      const [x, y, z] = await ids(urls(3));
      await a.history.record([{ urlId: x!, at: T0, values: values(1, null) }]);
      await a.history.record([{ urlId: y!, at: T0 + DAY, values: values(2, null) }]);
      const many = await b.history.pointsOfMany([x!, y!, z!], T0, T0 + 2 * DAY);
      expect(many.get(x!)).toEqual([{ at: T0, values: values(1, null) }]);
      expect(many.get(y!)).toEqual([{ at: T0 + DAY, values: values(2, null) }]);
      expect(many.get(z!)).toEqual([]);
    });

    it("compacts hours before a day to the last point of each UTC day, once per URL", async () => {
      const [id] = await ids(urls(1));
      for (let h = 0; h < 72; h += 5) await a.history.record([{ urlId: id!, at: T0 + h * HOUR, values: values(h, null) }]);
      const day3 = T0 / HOUR + 48;
      let compacted = 0;
      for (let n = -1; n !== 0; compacted += n) n = await a.history.compact(day3, 1_000);
      expect(compacted).toBeGreaterThan(0);
      const hours = (await b.history.points(id!, T0, T0 + 72 * HOUR)).map((p) => (p.at - T0) / HOUR);
      expect(hours).toEqual([20, 45, 50, 55, 60, 65, 70]);
      expect(await b.history.compact(day3, 1_000)).toBe(0);
    });

    it("compacts a batch of URLs together, each from where its own last compaction ended", async () => {
      const list = await ids(urls(3));
      for (const id of list) for (let h = 0; h < 72; h += 5) await a.history.record([{ urlId: id, at: T0 + h * HOUR, values: values(h, id) }]);
      const day2 = T0 / HOUR + 24;
      const day3 = T0 / HOUR + 48;
      // The first URL alone up to day 2, then all three up to day 3 in one batch.
      expect(await a.history.compact(day2, 1)).toBe(1);
      expect(await b.history.compact(day3, 1_000)).toBeGreaterThanOrEqual(3);
      for (const id of list) {
        const points = await b.history.points(id, T0, T0 + 72 * HOUR);
        expect(points.map((p) => (p.at - T0) / HOUR)).toEqual([20, 45, 50, 55, 60, 65, 70]);
        expect(points[0]!.values).toEqual(values(20, id));
      }
      expect(await a.history.compact(day3, 1_000)).toBe(0);
    });

    it("compaction keeps every network of the points it leaves", async () => {
      const [id] = await ids(urls(1));
      const base = T0 + 10 * DAY;
      // Every six hours over two days; the last point of each day holds all eight networks.
      for (let h = 0; h < 48; h += 6) await a.history.record([{ urlId: id!, at: base + h * HOUR, values: h % 24 === 18 ? everyNetwork(h) : { ok: { count: h } } }]);
      let compacted = 0;
      for (let n = -1; n !== 0; compacted += n) n = await a.history.compact(base / HOUR + 48, 1_000_000);
      expect(compacted).toBeGreaterThan(0);
      expect(await b.history.points(id!, base, base + 48 * HOUR)).toEqual([
        { at: base + 18 * HOUR, values: everyNetwork(18) },
        { at: base + 42 * HOUR, values: everyNetwork(42) },
      ]);
    });

    it("remembers which accounts asked about a URL, and when first", async () => {
      const [x, y] = await ids(urls(2));
      const owner = await account();
      await a.history.noteQueried(owner, [x!, x!], T0);
      await b.history.noteQueried(owner, [x!], T0 + 1);
      expect(await b.history.accessSince(owner, [x!, y!])).toEqual(new Map([[x!, T0]]));
      expect(await b.history.accessSince(await account(), [x!])).toEqual(new Map());
    });
  });

  describe.skipIf(skip)("tracked URLs", () => {
    it("adds within the plan's limit, all or none, and says how many slots are left", async () => {
      const owner = await account("small");
      const list = await ids(urls(4));
      expect(await a.tracked.add(owner, list.slice(0, 2), 3, T0)).toEqual({ ok: true, added: 2, alreadyTracked: 0 });
      expect(await b.tracked.add(owner, list.slice(1, 4), 3, T0)).toEqual({ ok: false, slotsLeft: 1 });
      expect(await b.tracked.add(owner, list.slice(0, 3), 3, T0)).toEqual({ ok: true, added: 1, alreadyTracked: 2 });
      expect(await a.tracked.count(owner)).toBe(3);
    });

    it("holds the limit under concurrent additions from two processes", async () => {
      const owner = await account("small");
      const list = await ids(urls(12));
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).tracked.add(owner, [list[i]!], 3, T0)),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(3);
      expect(await a.tracked.count(owner)).toBe(3);
    });

    it("lists the tracking pairs added since a time, all of them without one", async () => {
      const [one, two] = [await account("big"), await account("big")];
      const [early, late] = await ids(urls(2));
      const at = T0 + 5_000 * DAY;
      await a.tracked.add(one, [early!], 100, at);
      await a.tracked.add(one, [late!], 100, at + 10);
      await b.tracked.add(two, [late!], 100, at + 20);
      const pairs = (rows: { urlId: number; accountId: string }[]) =>
        rows.filter((row) => row.accountId === one || row.accountId === two).map((row) => `${row.accountId} ${row.urlId}`).sort();
      expect(pairs(await b.tracked.trackingSince(at + 10))).toEqual([`${one} ${late}`, `${two} ${late}`].sort());
      expect(pairs(await b.tracked.trackingSince(null))).toEqual([`${one} ${early}`, `${one} ${late}`, `${two} ${late}`].sort());
      expect(await a.tracked.trackingSince(at + 21)).toEqual([]);
    });

    it("removes a URL, and a URL no one tracks leaves the schedule", async () => {
      const [one, two] = [await account("big"), await account("big")];
      const [id] = await ids(urls(1));
      await a.tracked.add(one, [id!], 100, T0);
      await a.tracked.add(two, [id!], 100, T0);
      expect(await b.tracked.remove(one, id!)).toBe(true);
      expect(await b.tracked.remove(one, id!)).toBe(false);
      expect(await a.tracked.get(one, id!)).toBeNull();
      expect((await a.tracked.get(two, id!))?.url).toMatch(/page-/);
      await b.tracked.remove(two, id!);
      const claimed = await a.tracked.claimDue(T0 + 1, 10_000, 60_000, "w1");
      const mine = claimed.find((due) => due.urlId === id);
      expect(mine).toBeDefined();
      expect(await a.tracked.forget(id!, "w1")).toBe(true);
    });

    it("leases each due URL to one worker, the most overdue first, until the lease runs out", async () => {
      const owner = await account("big");
      const list = await ids(urls(3));
      const base = T0 + 1_000 * DAY;
      await a.tracked.add(owner, [list[2]!], 100, base - 3);
      await a.tracked.add(owner, [list[0]!], 100, base - 1);
      await a.tracked.add(owner, [list[1]!], 100, base - 2);
      // What earlier tests left due is leased away first, so only these three are due at `base`.
      await a.tracked.claimDue(base - 10, 1_000_000, 10 * DAY, "earlier");
      const [first] = await a.tracked.claimDue(base, 1, 60_000, "x");
      expect(first?.urlId).toBe(list[2]);
      const [x, y] = await Promise.all([a.tracked.claimDue(base, 2, 60_000, "x"), b.tracked.claimDue(base, 2, 60_000, "y")]);
      const claimed = [...x, ...y].map((c) => c.urlId);
      expect(claimed.sort()).toEqual(list.slice(0, 2).sort());
      // A worker killed mid-refresh: its lease runs out and another takes the URL over.
      const holder = "x";
      expect(await a.tracked.claimDue(base + 59_000, 10_000, 60_000, "z")).toEqual([]);
      const retaken = await b.tracked.claimDue(base + 60_000, 10_000, 60_000, "z");
      expect(retaken.map((c) => c.urlId)).toContain(list[2]);
      // The first holder's late answer is refused: the slot belongs to "z" now.
      expect(await a.tracked.completeRefresh({ urlId: list[2]!, dueAt: base - 3 }, holder, base + 61_000, base + DAY, [])).toBe(false);
      expect(await a.tracked.completeRefresh({ urlId: list[2]!, dueAt: base - 3 }, "z", base + 61_000, base + DAY, [{ accountId: owner, summary: summary(42, 2) }])).toBe(true);
      const row = await b.tracked.get(owner, list[2]!);
      expect(row).toMatchObject({ lastRefreshedAt: base + 61_000, nextRefreshAt: base + DAY, total: 42, change7d: 2, latest: values(42, null) });
      const growing = await b.tracked.page(owner, { sort: "change_7d", order: "desc", limit: 10, filter: "growing" });
      expect(growing.rows.map((r) => r.urlId)).toEqual([list[2]]);
      const uncounted = await b.tracked.page(owner, { sort: "added", order: "asc", limit: 10, filter: "uncounted" });
      expect(uncounted.rows.map((r) => r.urlId).sort()).toEqual(list.slice(0, 2).sort());
      for (const id of list.slice(0, 2)) await a.tracked.releaseLease(id, "x");
      for (const id of list.slice(0, 2)) await a.tracked.releaseLease(id, "y");
    });

    it("claims URLs never refreshed before the most overdue others", async () => {
      const owner = await account("big");
      const [old, fresh] = await ids(urls(2));
      const base = T0 + 1_500 * DAY;
      await a.tracked.add(owner, [old!], 100, base - DAY);
      await a.tracked.claimDue(base - DAY, 1_000_000, 60_000, "first");
      await a.tracked.completeRefresh({ urlId: old!, dueAt: base - DAY }, "first", base - DAY, base - HOUR, []);
      await a.tracked.claimDue(base - 10, 1_000_000, 10 * DAY, "earlier");
      await b.tracked.add(owner, [fresh!], 100, base);
      // `old` is due again since base - HOUR (more overdue), but `fresh` was never counted: it goes first.
      await a.tracked.releaseLease(old!, "earlier");
      const [first] = await a.tracked.claimDue(base, 1, 60_000, "w");
      expect(first?.urlId).toBe(fresh);
      const [second] = await b.tracked.claimDue(base, 1, 60_000, "w");
      expect(second?.urlId).toBe(old);
    });

    it("shares each round between the accounts with due URLs: one account's backlog delays only its own", async () => {
      const [busy, calm] = [await account("big"), await account("big")];
      const backlog = await ids(urls(20));
      const [own] = await ids(urls(1));
      const base = T0 + 1_700 * DAY;
      await a.tracked.claimDue(base - 100, 1_000_000, 10 * DAY, "earlier");
      for (const [i, id] of backlog.entries()) await a.tracked.add(busy, [id], 1_000, base - 50 + i);
      await b.tracked.add(calm, [own!], 1_000, base);
      const round = (await a.tracked.claimDue(base, 4, 60_000, "w")).map((d) => d.urlId);
      // Each account's first turn (in either order), then the busy account's next ones.
      expect(round.slice(0, 2).sort()).toEqual([backlog[0], own].sort());
      expect(round.slice(2)).toEqual([backlog[1], backlog[2]]);
      // The busy account's turns come back once the calm one has none.
      expect((await b.tracked.claimDue(base, 2, 60_000, "w")).map((d) => d.urlId)).toEqual([backlog[3], backlog[4]]);
      for (const id of [...backlog, own!]) await a.tracked.releaseLease(id!, "w");
    });

    it("serves an account with one late URL while more accounts than places have older backlogs", async () => {
      const backlogs = [await account("big"), await account("big")];
      const late = await account("big");
      const base = T0 + 1_800 * DAY;
      await a.tracked.claimDue(base - 100, 1_000_000, 10 * DAY, "earlier");
      for (const owner of backlogs) for (const [i, id] of (await ids(urls(20))).entries()) await a.tracked.add(owner, [id], 1_000, base - 50 + i);
      const [own] = await ids(urls(1));
      await b.tracked.add(late, [own!], 1_000, base);
      // Two places a round for three accounts' first turns: by due time the two backlogs would take them all.
      let served = false;
      for (let round = 0; round < 15 && !served; round++) {
        const claimed = await a.tracked.claimDue(base, 2, 60_000, `round-${round}`);
        served = claimed.some((d) => d.urlId === own);
        for (const due of claimed) await a.tracked.completeRefresh(due, `round-${round}`, base, base + 30 * DAY, []);
      }
      // (1/3)^15 that a fair draw misses it fifteen times.
      expect(served).toBe(true);
    });

    it("a URL someone already tracks is due again when another account starts tracking it", async () => {
      const [one, two] = [await account("big"), await account("big")];
      const [id] = await ids(urls(1));
      const base = T0 + 2_000 * DAY;
      await a.tracked.add(one, [id!], 100, base);
      const [due] = (await a.tracked.claimDue(base, 10_000, 60_000, "w")).filter((d) => d.urlId === id);
      expect(due).toMatchObject({ firstTrackedAt: base, dueAt: base });
      await a.tracked.completeRefresh(due!, "w", base, base + 7 * DAY, []);
      await b.tracked.add(two, [id!], 100, base + DAY);
      expect((await b.tracked.get(two, id!))?.nextRefreshAt).toBe(base + DAY);
      expect(await b.tracked.backlog(two, base + DAY)).toEqual({ due: 1, oldestDueAt: base + DAY });
      expect((await b.tracked.backlog(null, base + DAY)).due).toBeGreaterThanOrEqual(1);
    });

    it("a change during a refresh (a new tracker, new aliases) leaves the URL due again rather than at the cadence's time", async () => {
      const [one, two] = [await account("big"), await account("big")];
      const [id] = await ids(urls(1));
      const base = T0 + 2_500 * DAY;
      await a.tracked.add(one, [id!], 100, base);
      const [due] = (await a.tracked.claimDue(base, 1_000_000, 60_000, "w")).filter((d) => d.urlId === id);
      await b.tracked.add(two, [id!], 100, base + 10);
      expect(await a.tracked.completeRefresh(due!, "w", base + 20, base + HOUR, [])).toBe(true);
      expect((await a.tracked.get(two, id!))?.nextRefreshAt).toBe(base + 10);
      const [again] = (await a.tracked.claimDue(base + 30, 1_000_000, 60_000, "v")).filter((d) => d.urlId === id);
      await b.tracked.setAliases(one, id!, ["https://old.site.example/x"], base + 40);
      expect(await a.tracked.completeRefresh(again!, "v", base + 50, base + HOUR, [])).toBe(true);
      // Refreshed at base + 20 already: again no sooner than ten minutes after that.
      const gap = base + 20 + 10 * 60_000;
      expect((await a.tracked.get(one, id!))?.nextRefreshAt).toBe(gap);
      expect((await a.tracked.claimDue(gap - 1, 1_000_000, 60_000, "u")).filter((d) => d.urlId === id)).toEqual([]);
      const [third] = (await a.tracked.claimDue(gap, 1_000_000, 60_000, "u")).filter((d) => d.urlId === id);
      expect(await a.tracked.completeRefresh(third!, "u", gap, gap + HOUR, [])).toBe(true);
      expect((await a.tracked.get(one, id!))?.nextRefreshAt).toBe(gap + HOUR);
      // Trackers coming and going cannot make it due sooner than the gap allows.
      await b.tracked.remove(two, id!);
      await b.tracked.add(two, [id!], 100, gap + 1);
      expect((await a.tracked.get(one, id!))?.nextRefreshAt).toBe(gap + 10 * 60_000);
    });

    it("keeps every network of a refresh's latest counts", async () => {
      const owner = await account("big");
      const [id] = await ids(urls(1));
      await a.tracked.add(owner, [id!], 100, T0);
      const [due] = (await a.tracked.claimDue(T0, 1_000_000, 60_000, "latest")).filter((d) => d.urlId === id);
      const latest = everyNetwork(3);
      expect(await a.tracked.completeRefresh(due!, "latest", T0, T0 + 7 * DAY, [{ accountId: owner, summary: { latest, total: 99, change7d: null, change30d: null } }])).toBe(true);
      expect((await b.tracked.get(owner, id!))?.latest).toEqual(latest);
    });

    it("lists who tracks a URL with their aliases, variant setting, networks, and since when it is theirs", async () => {
      const [one, two] = [await account("big"), await account("big")];
      await db.prisma.account.update({ where: { id: two }, data: { countVariants: true, networks: "reddit,vk" } });
      const [id] = await ids(urls(1));
      // One asked about it before tracking it; two came to it when it tracked it.
      await a.history.noteQueried(one, [id!], T0 - DAY);
      await a.tracked.add(one, [id!], 100, T0);
      await a.tracked.add(two, [id!], 100, T0 + 1);
      const [due] = (await a.tracked.claimDue(T0, 1_000_000, 60_000, "aliases")).filter((d) => d.urlId === id);
      await a.tracked.completeRefresh(due!, "aliases", T0, T0 + 7 * DAY, []);
      expect(due).toBeDefined();
      expect(await b.tracked.setAliases(one, id!, ["http://old.example/a"], T0 + DAY)).toBe(true);
      expect(await b.tracked.setAliases(one, id! + 100_000, [], T0 + DAY)).toBe(false);
      expect((await a.tracked.get(one, id!))?.nextRefreshAt).toBe(T0 + DAY);
      const trackers = (await a.tracked.trackersOf([id!])).get(id!);
      expect(trackers).toEqual(
        [
          { accountId: one, aliases: ["http://old.example/a"], countVariants: false, networks: null, since: T0 - DAY },
          { accountId: two, aliases: [], countVariants: true, networks: ["reddit", "vk"], since: T0 + 1 },
        ].sort((x, y) => (x.accountId < y.accountId ? -1 : 1)),
      );
    });

    it("pages the list by a cursor, rows without the sort value last in either order, with search", async () => {
      const owner = await account("big");
      const list = urls(7);
      const idOf = await a.history.idsOf(list);
      const all = list.map((u) => idOf.get(u)!);
      const base = T0 + 3_000 * DAY;
      await a.tracked.add(owner, all, 100, base);
      const totals = [5, null, 9, 5, null, 1, 7];
      const claimed = await a.tracked.claimDue(base, 10_000, 60_000, "p");
      for (const due of claimed) {
        const i = all.indexOf(due.urlId);
        await a.tracked.completeRefresh(due, "p", base, base + DAY, i < 0 ? [] : [{ accountId: owner, summary: summary(totals[i]!) }]);
      }
      const walk = async (order: "asc" | "desc", limit: number, search?: string) => {
        const seen: (number | null)[] = [];
        let after;
        for (let pages = 0; pages < 20; pages++) {
          const page = await b.tracked.page(owner, { sort: "total", order, limit, after, search });
          seen.push(...page.rows.map((r) => r.total));
          if (!page.next) return seen;
          after = page.next;
        }
        throw new Error("the cursor never ended");
      };
      expect(await walk("desc", 2)).toEqual([9, 7, 5, 5, 1, null, null]);
      expect(await walk("asc", 3)).toEqual([1, 5, 5, 7, 9, null, null]);
      expect(await walk("desc", 5)).toEqual([9, 7, 5, 5, 1, null, null]);
      expect(await walk("desc", 100)).toEqual([9, 7, 5, 5, 1, null, null]);
      const third = list[2]!.replace("https://site.example/", "");
      expect(await walk("desc", 2, third.toUpperCase())).toEqual([9]);
      expect(await walk("desc", 2, "%")).toEqual([]);
      expect((await b.tracked.page(owner, { sort: "total", order: "desc", limit: 10, filter: "uncounted" })).rows).toEqual([]);
      const added = await b.tracked.page(owner, { sort: "added", order: "asc", limit: 10 });
      expect(added.rows.map((r) => r.urlId)).toEqual([...all].sort((x, y) => x - y));
      expect(added.next).toBeNull();
    });
  });
});
