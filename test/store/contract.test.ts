import { beforeAll, describe, expect, it } from "vitest";
import type { StoredCounts } from "../../lib/counts/values.ts";
import { openStore } from "../../lib/store/open.ts";
import type { Store } from "../../lib/store/store.ts";
import { StoreUnavailableError } from "../../lib/store/unavailable.ts";
import { until } from "../support/processes.ts";
import { postgresSkipReason, postgresStoreDatabase, sqliteStoreDatabase, twoStores, type StoreDatabase } from "../support/stores.ts";

/**
 * One contract for both stores, run unchanged against each: two stores on one database stand for two
 * processes (each has its own connection or pool).
 */
const skipPostgres = (await postgresSkipReason("test/store/contract.test.ts")) !== undefined;
const drivers = [
  { name: "SQLite", database: sqliteStoreDatabase, skip: false },
  { name: "PostgreSQL", database: postgresStoreDatabase, skip: skipPostgres },
];

const COUNTS: StoredCounts = {
  Facebook: { total_count: 6, comment_count: 1, reaction_count: 2, share_count: 3, comment_plugin_count: 0, og_object: null },
  Pinterest: 4,
};

describe.each(drivers)("the $name store", ({ database, skip }) => {
  const stores = twoStores(
    database,
    [
      { name: "p", dailyQuota: 1_000_000, bulkBatchLimit: 10_000, customTtlAllowed: true },
      { name: "q", dailyQuota: 10, bulkBatchLimit: 20_000, customTtlAllowed: false },
    ],
    skip,
  );
  const { account } = stores;
  let a: Store;
  let b: Store;
  let db: StoreDatabase;
  beforeAll(() => ({ a, b, db } = stores));

  describe.skipIf(skip)("accounts", () => {
    it("reads an account by its key's hash, with its plan and whitelist, and the key's scopes, expiry and revocation", async () => {
      const id = await account();
      expect(await a.accounts.byKeyHash(`hash-${id}`)).toEqual({
        account: {
          id,
          plan: { name: "p", dailyQuota: 1_000_000, bulkBatchLimit: 10_000, customTtlAllowed: true, trackedUrlLimit: 100 },
          whitelist: { enabled: false, domains: ["a.example", "b.example"] },
          networks: null,
        },
        key: { id: `key-${id}`, scopes: ["counts:read", "account:read"], expiresAt: null, revoked: false },
      });
      const at = Date.UTC(2026, 10, 27, 12, 0, 0, 123);
      await db.prisma.apiKey.update({ where: { id: `key-${id}` }, data: { expiresAt: new Date(at), revokedAt: new Date(at), scopes: "account:read no-such:scope" } });
      expect((await a.accounts.byKeyHash(`hash-${id}`))?.key).toEqual({ id: `key-${id}`, scopes: ["account:read"], expiresAt: at, revoked: true });
      expect(await a.accounts.byKeyHash("no-such-hash")).toBeNull();
      expect(await a.accounts.plan(id)).toEqual({
        name: "p",
        dailyQuota: 1_000_000,
        bulkBatchLimit: 10_000,
        customTtlAllowed: true,
        trackedUrlLimit: 100,
      });
      expect(await a.accounts.plan("no-such-account")).toBeNull();
      expect(await a.accounts.largestBulkBatchLimit()).toBe(20_000);
    });

    it("moves the version when another process commits a change to an account", async () => {
      const id = await account();
      const before = await until("a steady version", async () => [await a.accounts.version(), await a.accounts.version()], ([x, y]) => x === y, 10_000);
      await db.prisma.account.update({ where: { id }, data: { whitelistEnabled: true } });
      await until("a new version", async () => a.accounts.version(), (v) => v !== before[0], 10_000);
      expect((await a.accounts.byKeyHash(`hash-${id}`))?.account.whitelist.enabled).toBe(true);

      // The networks the account shows are cached with it too (API v2's default networks).
      const steady = await a.accounts.version();
      await db.prisma.account.update({ where: { id }, data: { networks: "reddit,tumblr,gone" } });
      await until("a new version", async () => a.accounts.version(), (v) => v !== steady, 10_000);
      expect((await a.accounts.byKeyHash(`hash-${id}`))?.account.networks).toEqual(["reddit", "tumblr"]);

      // A revoked key moves it too (on PostgreSQL through the api_key trigger), so every process drops its cached key.
      const beforeRevoke = await a.accounts.version();
      await db.prisma.apiKey.update({ where: { id: `key-${id}` }, data: { revokedAt: new Date() } });
      await until("a new version", async () => a.accounts.version(), (v) => v !== beforeRevoke, 10_000);
    });
  });

  describe.skipIf(skip)("usage", () => {
    it("counts exactly the quota across processes, and gives back what is released", async () => {
      const id = await account();
      const results = await Promise.all(Array.from({ length: 300 }, (_, i) => (i % 2 ? a : b).usage.reserve(id, "2026-01-01", 50)));
      const granted = results.filter((r) => r !== null);
      expect(granted).toHaveLength(50);
      expect(new Set(granted).size).toBe(50);
      expect(await a.usage.queriesOn(id, "2026-01-01")).toBe(50);
      expect(await a.usage.reserve(id, "2026-01-02", 0)).toBeNull();
      await b.usage.release(id, "2026-01-01");
      expect(await a.usage.queriesOn(id, "2026-01-01")).toBe(49);
      expect(await a.usage.reserve(id, "2026-01-01", 50)).toBe(50);
      expect(await a.usage.queriesOn(id, "2026-01-03")).toBe(0);
    });

    it("takes several reservations at once, each all or none within its quota", async () => {
      const [x, y] = [await account(), await account()];
      await a.usage.reserve(y, "2026-02-01", 10);
      const totals = await b.usage.reserveMany([
        { accountId: x, day: "2026-02-01", queries: 3, dailyQuota: 5 },
        { accountId: y, day: "2026-02-01", queries: 10, dailyQuota: 10 },
        { accountId: x, day: "2026-02-02", queries: 6, dailyQuota: 5 },
      ]);
      expect(totals).toEqual([3, null, null]);
      expect(await a.usage.queriesOn(y, "2026-02-01")).toBe(1);
      expect(await a.usage.queriesOn(x, "2026-02-02")).toBe(0);
      expect(await a.usage.reserveMany([{ accountId: x, day: "2026-02-01", queries: 2, dailyQuota: 5 }])).toEqual([5]);
      expect(await a.usage.reserveMany([])).toEqual([]);
    });

    it("reads a range of days and the allocations, in day order", async () => {
      const id = await account();
      for (const day of ["2026-03-03", "2026-03-01", "2026-03-09"]) await a.usage.reserve(id, day, 5);
      await db.prisma.quotaAllocation.createMany({
        data: [
          { accountId: id, day: "2026-03-05", dailyQuota: 100 },
          { accountId: id, day: "2026-03-01", dailyQuota: 5 },
        ],
      });
      expect(await b.usage.between(id, "2026-03-01", "2026-03-05")).toEqual([
        { day: "2026-03-01", queries: 1 },
        { day: "2026-03-03", queries: 1 },
      ]);
      expect(await b.usage.allocations(id)).toEqual([
        { day: "2026-03-01", dailyQuota: 5 },
        { day: "2026-03-05", dailyQuota: 100 },
      ]);
    });
  });

  describe.skipIf(skip)("imports", () => {
    it("records a usage history only for an account with none, all of it", async () => {
      const id = await account();
      const days = [
        { day: "2026-04-01", queries: 7 },
        { day: "2026-04-02", queries: 9 },
      ];
      const results = await Promise.all([a.usage.importHistory(id, days), b.usage.importHistory(id, days)]);
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await a.usage.between(id, "2026-04-01", "2026-04-30")).toEqual(days);
      expect(await a.usage.importHistory(id, [{ day: "2026-04-03", queries: 1 }])).toBe(false);
    });

    it("stores a completed job with its results, not counted again", async () => {
      const id = await account();
      await a.bulk.importCompleted({ id: "job-imported", accountId: id, createdAt: 100, completedAt: 200 }, [
        { url: "https://example.com/a", countUrl: "https://example.com/a", counts: COUNTS, completedAt: 150 },
        { url: "https://example.com/b", countUrl: "https://example.com/b", counts: { Facebook: null, Pinterest: null }, completedAt: 200 },
      ]);
      expect(await b.bulk.job("job-imported", id)).toMatchObject({ urlsQueued: 2, urlsCompleted: 2, createdAt: 100, completedAt: 200 });
      expect((await b.bulk.results("job-imported")).map((r) => r.url)).toEqual(["https://example.com/a", "https://example.com/b"]);
      expect(await b.bulk.queued({ id: "job-imported", accountId: id }, 0, 10)).toEqual([]);
      expect(await b.usage.between(id, "0000-01-01", "9999-12-31")).toEqual([]);
    });
  });

  describe.skipIf(skip)("bulk jobs", () => {
    it("stores 10,000 URLs in submission order, and two processes answer and count each exactly once", async () => {
      const id = await account();
      const urls = Array.from({ length: 10_000 }, (_, i) => ({ url: `https://example.com/${i}`, countUrl: `https://example.com/${i}` }));
      const created = await a.bulk.create({ id: "job-big", accountId: id, createdAt: 1_763_700_000_456 }, urls);
      expect(created.map((q) => q.countUrl)).toEqual(urls.map((u) => u.countUrl));
      expect(created[0]).toMatchObject({ jobId: "job-big", accountId: id });
      expect(await a.bulk.queued({ id: "job-big", accountId: id }, 0, 20_000)).toEqual(created);

      const first = created.slice(0, 2_000);
      const quota = { day: "2026-02-01", dailyQuota: 1_000_000 };
      const outcomes: string[] = [];
      // Each chunk of 20 URLs raced by both processes, 10 chunks at a time, so a busy machine's pools do not
      // time out; the chunks overlap by half, so a chunk meets URLs done and URLs still queued.
      const counted = (items: typeof first) => items.map((item) => ({ item, result: { counts: COUNTS } }));
      for (let i = 0; i < first.length; i += 200) {
        const race = Array.from({ length: 10 }, (_, j) => first.slice(i + j * 20, i + j * 20 + 20)).flatMap((chunk, j) => [
          a.bulk.complete(counted(chunk), quota, 1_763_700_000_999),
          b.bulk.complete(counted(j % 2 === 0 ? chunk : chunk.slice(10)), quota, 1_763_700_000_999),
        ]);
        outcomes.push(...(await Promise.all(race)).flat());
      }
      expect(outcomes.filter((o) => o === "completed")).toHaveLength(2_000);
      expect(outcomes.filter((o) => o === "already_done")).toHaveLength(1_500);
      expect(await a.usage.queriesOn(id, quota.day)).toBe(2_000);
      expect(await b.bulk.job("job-big", id)).toMatchObject({ urlsQueued: 10_000, urlsCompleted: 2_000, createdAt: 1_763_700_000_456, completedAt: null });
      const results = await b.bulk.results("job-big");
      expect(results).toHaveLength(2_000);
      expect(results[0]).toEqual({ url: urls[0]!.url, counts: COUNTS });
    });

    it("leaves a URL queued when the quota is used up, and completes the job with its last URL", async () => {
      const id = await account();
      const [x, y] = await a.bulk.create({ id: "job-small", accountId: id, createdAt: 1, requestId: "req-small" }, [
        { url: "x", countUrl: "x" },
        { url: "y", countUrl: "y" },
      ]);
      expect(await a.bulk.complete([{ item: x!, result: { counts: COUNTS } }], { day: "d", dailyQuota: 1 }, 5)).toEqual(["completed"]);
      expect(await a.bulk.complete([{ item: y!, result: { counts: COUNTS } }], { day: "d", dailyQuota: 1 }, 6)).toEqual(["quota_exhausted"]);
      expect(x).toMatchObject({ jobId: "job-small", requestId: "req-small" });
      const [job] = (await a.bulk.active(10)).filter((j) => j.id === "job-small");
      expect(job).toEqual({ id: "job-small", accountId: id, urlsCompleted: 1, createdAt: 1, requestId: "req-small" });
      expect(await a.bulk.queued(job!, 0, 10)).toEqual([{ id: y!.id, jobId: "job-small", accountId: id, countUrl: "y", requestId: "req-small" }]);
      expect(await a.bulk.complete([{ item: y!, result: { counts: COUNTS } }], { day: "d", dailyQuota: 2 }, 7)).toEqual(["completed"]);
      expect(await a.bulk.job("job-small", id)).toMatchObject({ urlsCompleted: 2, completedAt: 7 });
      expect((await a.bulk.active(10)).map((j) => j.id)).not.toContain("job-small");
    });

    it("keeps a v2 job's networks and its URLs' network values, beside a v1 job's counts", async () => {
      const id = await account();
      const [item] = await a.bulk.create({ id: "job-v2", accountId: id, createdAt: 1, networks: ["reddit", "facebook"] }, [{ url: "u", countUrl: "u" }]);
      const networks = {
        values: { reddit: { score: -3, comments: 4, posts: 2 }, Facebook: { total_count: 1, comment_count: 0, reaction_count: 1, share_count: 0, comment_plugin_count: 0 } },
        stale: { reddit: 120 },
      };
      expect(await a.bulk.complete([{ item: item!, result: { networks } }], { day: "d", dailyQuota: 10 }, 5)).toEqual(["completed"]);
      expect(await b.bulk.results("job-v2")).toEqual([{ url: "u", networks }]);
      expect(await b.bulk.networksOf("job-v2")).toEqual(["reddit", "facebook"]);
      expect((await b.bulk.job("job-v2", id))?.networks).toEqual(["reddit", "facebook"]);
      await a.bulk.create({ id: "job-v1", accountId: id, createdAt: 2 }, [{ url: "u", countUrl: "u" }]);
      expect(await b.bulk.networksOf("job-v1")).toBeNull();
      expect(await b.bulk.networksOf("no-such-job")).toBeUndefined();
    });

    it("finds a job only for its own account, and lists an account's jobs newest first", async () => {
      const [owner, other] = [await account(), await account()];
      await a.bulk.create({ id: "job-old", accountId: owner, createdAt: 100 }, [{ url: "u", countUrl: "u" }]);
      await a.bulk.create({ id: "job-new", accountId: owner, createdAt: 200 }, [{ url: "u", countUrl: "u" }]);
      expect(await b.bulk.job("job-old", other)).toBeNull();
      expect((await b.bulk.jobsOf(owner)).map((j) => j.id)).toEqual(["job-new", "job-old"]);
      expect(await b.bulk.jobsOf(other)).toEqual([]);
    });

    it("pauses an account's jobs, and resumes them by account or by plan", async () => {
      const [x, y] = [await account("q"), await account("q")];
      await a.bulk.create({ id: "job-x", accountId: x, createdAt: 10 }, [{ url: "u", countUrl: "u" }]);
      await a.bulk.create({ id: "job-y", accountId: y, createdAt: 11 }, [{ url: "u", countUrl: "u" }]);
      const activeIds = async () => (await b.bulk.active(1_000)).map((j) => j.id).filter((j) => j === "job-x" || j === "job-y");
      await a.bulk.pause(x, 5_000);
      await a.bulk.pause(y, 5_000);
      expect(await activeIds()).toEqual([]);
      expect((await b.bulk.active(5_000)).map((j) => j.id)).toEqual(expect.arrayContaining(["job-x", "job-y"]));
      await a.bulk.resume({ accountId: x });
      expect(await activeIds()).toEqual(["job-x"]);
      await a.bulk.pause(x, 5_000);
      await a.bulk.resume({ planName: "q" });
      expect(await activeIds()).toEqual(["job-x", "job-y"]);
      expect((await b.bulk.job("job-y", y))?.pausedUntil).toBeNull();
    });

    it("deletes jobs past retention, with their URLs", async () => {
      const id = await account();
      const jobCount = () => db.prisma.bulkJob.count();
      const [done] = await a.bulk.create({ id: "job-done", accountId: id, createdAt: 1_000 }, [{ url: "u", countUrl: "u" }]);
      await a.bulk.complete([{ item: done!, result: { counts: COUNTS } }], { day: "d", dailyQuota: 10 }, 2_000);
      await a.bulk.create({ id: "job-stuck", accountId: id, createdAt: 1_500 }, [{ url: "u", countUrl: "u" }]);
      await a.bulk.create({ id: "job-young", accountId: id, createdAt: 9_000 }, [{ url: "u", countUrl: "u" }]);
      const before = await jobCount();
      expect(await b.bulk.deleteExpired(2_001, 1_600)).toBe(before - (await jobCount()));
      expect((await b.bulk.jobsOf(id)).map((j) => j.id)).toEqual(["job-young"]);
      expect(await b.bulk.results("job-done")).toEqual([]);
    });
  });

  describe.skipIf(skip)("known counts", () => {
    it("keeps each network's last good value per URL, typed, and the latest of several in one turn", async () => {
      await Promise.all([
        a.counts.save("https://example.com/k", "Facebook", { ...COUNTS.Facebook!, share_count: 1 }, 1_763_700_000_001),
        a.counts.save("https://example.com/k", "Facebook", COUNTS.Facebook!, 1_763_700_000_123),
        a.counts.save("https://example.com/k", "Pinterest", 4, 1_763_700_000_124),
      ]);
      expect(await b.counts.get("https://example.com/k", "Facebook")).toEqual({ value: COUNTS.Facebook, fetchedAt: 1_763_700_000_123 });
      expect(await b.counts.get("https://example.com/k", "Pinterest")).toEqual({ value: 4, fetchedAt: 1_763_700_000_124 });
      expect(await b.counts.get("https://example.com/other", "Pinterest")).toBeNull();
    });

    it("treats a stored value that is not the network's shape as unknown", async () => {
      await db.prisma.networkCount.create({ data: { url: "https://example.com/bad", network: "Pinterest", value: '{"no":1}', fetchedAt: 5n } });
      expect(await a.counts.get("https://example.com/bad", "Pinterest")).toBeNull();
    });
  });

  describe.skipIf(skip)("failures", () => {
    it("tells a closed store (unavailable: a 503) from a failing statement (a bug)", async () => {
      const bug = await a.bulk.create({ id: "job-orphan", accountId: "no-such-account", createdAt: 1 }, []).then(() => null, (e: unknown) => e);
      expect(bug).toBeInstanceOf(Error);
      expect(bug).not.toBeInstanceOf(StoreUnavailableError);

      const closing = openStore(db.url);
      await closing.ping();
      await closing.close();
      for (const call of [() => closing.ping(), () => closing.usage.queriesOn("x", "d"), () => closing.bulk.active(0)]) {
        expect(await call().then(() => null, (error: unknown) => error)).toBeInstanceOf(StoreUnavailableError);
      }
    });
  });
});
