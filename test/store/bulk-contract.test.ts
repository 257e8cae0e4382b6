import { beforeAll, describe, expect, it } from "vitest";
import { quotaSpent } from "../../lib/bulk/job-state.ts";
import type { StoredCounts } from "../../lib/counts/values.ts";
import type { Store } from "../../lib/store/store.ts";
import { postgresSkipReason, postgresStoreDatabase, sqliteStoreDatabase, twoStores } from "../support/stores.ts";

/**
 * A bulk job's name and the quota it spent, one contract run unchanged on both stores (two stores on one
 * database stand for two worker processes).
 */
const skipPostgres = (await postgresSkipReason("test/store/bulk-contract.test.ts")) !== undefined;
const drivers = [
  { name: "SQLite", database: sqliteStoreDatabase, skip: false },
  { name: "PostgreSQL", database: postgresStoreDatabase, skip: skipPostgres },
];

const COUNTS: StoredCounts = { Facebook: null, Pinterest: 3 };
const urls = (n: number) => Array.from({ length: n }, (_, i) => ({ url: `https://example.com/${i}`, countUrl: `https://example.com/${i}` }));

describe.each(drivers)("the $name store's bulk job names and quota spent", ({ database, skip }) => {
  const stores = twoStores(database, [{ name: "p", dailyQuota: 1_000, bulkBatchLimit: 1_000, customTtlAllowed: false }], skip);
  let a: Store;
  let b: Store;
  beforeAll(() => ({ a, b } = stores));

  describe.skipIf(skip)("", () => {
    it("keeps a job's name as given, in every language, and null for an unnamed job", async () => {
      const id = await stores.account();
      const name = "März-Artikel — 文章 🗞️.csv";
      await a.bulk.create({ id: "named", accountId: id, createdAt: 1, networks: ["reddit"], name }, urls(1));
      await a.bulk.create({ id: "unnamed", accountId: id, createdAt: 2 }, urls(1));
      await a.bulk.importCompleted({ id: "imported", accountId: id, createdAt: 3, completedAt: 4, name: "demo.txt" }, [
        { ...urls(1)[0]!, counts: COUNTS, completedAt: 4 },
      ]);
      expect((await b.bulk.job("named", id))?.name).toBe(name);
      expect((await b.bulk.job("unnamed", id))?.name).toBeNull();
      expect((await b.bulk.jobsOf(id)).map((job) => [job.id, job.name])).toEqual([
        ["imported", "demo.txt"],
        ["unnamed", null],
        ["named", name],
      ]);
    });

    it("spends one query of the day's quota per URL counted, recorded with the job in the same step", async () => {
      const id = await stores.account();
      const queued = await a.bulk.create({ id: "spender", accountId: id, createdAt: 1, name: "spender" }, urls(30));
      const job = async () => (await b.bulk.job("spender", id))!;
      expect(quotaSpent(await job())).toBe(0);

      // Two processes race for every URL; the quota has room for 20 of the 30.
      const quota = { day: "2026-05-01", dailyQuota: 20 };
      const outcomes = (await Promise.all(queued.flatMap((item) => [a, b].map((store) => store.bulk.complete([{ item, result: { counts: COUNTS } }], quota, 10))))).flat();
      expect(outcomes.filter((outcome) => outcome === "completed")).toHaveLength(20);
      expect(quotaSpent(await job())).toBe(20);
      expect(await a.usage.queriesOn(id, quota.day)).toBe(20);

      // Refused for want of quota, or answered already: nothing more is spent, by the job or the account.
      const waiting = await a.bulk.queued({ id: "spender", accountId: id }, 0, 100);
      expect(waiting).toHaveLength(10);
      expect(await a.bulk.complete([{ item: waiting[0]!, result: { counts: COUNTS } }], quota, 11)).toEqual(["quota_exhausted"]);
      expect(await b.bulk.complete([{ item: queued[0]!, result: { counts: COUNTS } }], { ...quota, dailyQuota: 100 }, 11)).toEqual(["already_done"]);
      expect(quotaSpent(await job())).toBe(20);
      expect(await a.usage.queriesOn(id, quota.day)).toBe(20);

      // The next day's quota pays for the rest: the job's spending adds up over the days it ran.
      const nextDay = { day: "2026-05-02", dailyQuota: 20 };
      for (const item of waiting) expect(await a.bulk.complete([{ item, result: { counts: COUNTS } }], nextDay, 12)).toEqual(["completed"]);
      expect(quotaSpent(await job())).toBe(30);
      expect(await a.usage.queriesOn(id, nextDay.day)).toBe(10);
      expect(await a.bulk.job("spender", id)).toMatchObject({ urlsCompleted: 30, completedAt: 12 });
    });

    it("stores a chunk of URLs at once: the first get the room there is, URLs done or listed twice are not paid again", async () => {
      const id = await stores.account();
      const queued = await a.bulk.create({ id: "chunked", accountId: id, createdAt: 1 }, urls(6));
      const quota = { day: "2026-05-03", dailyQuota: 4 };
      const counted = (items: typeof queued) => items.map((item) => ({ item, result: { counts: { ...COUNTS, Pinterest: item.id } } }));
      expect(await b.bulk.complete(counted([queued[1]!]), quota, 20)).toEqual(["completed"]);
      const chunk = counted([queued[0]!, queued[1]!, queued[2]!, queued[2]!, queued[3]!, queued[4]!, queued[5]!]);
      expect(await a.bulk.complete(chunk, quota, 21)).toEqual(["completed", "already_done", "completed", "already_done", "completed", "quota_exhausted", "quota_exhausted"]);
      expect(await a.usage.queriesOn(id, quota.day)).toBe(4);
      expect(await b.bulk.job("chunked", id)).toMatchObject({ urlsCompleted: 4, completedAt: null });
      expect((await b.bulk.results("chunked")).map((r) => ("counts" in r ? r.counts.Pinterest : null))).toEqual(queued.slice(0, 4).map((item) => item.id));
      expect((await b.bulk.queued({ id: "chunked", accountId: id }, 0, 10)).map((item) => item.id)).toEqual([queued[4]!.id, queued[5]!.id]);
      expect(await b.bulk.complete(counted(queued.slice(4)), { ...quota, day: "2026-05-04" }, 22)).toEqual(["completed", "completed"]);
      expect(await b.bulk.job("chunked", id)).toMatchObject({ urlsCompleted: 6, completedAt: 22 });
    });

    it("counts a chunk that spans two of the account's jobs on each job", async () => {
      const id = await stores.account();
      const first = await a.bulk.create({ id: "spans-1", accountId: id, createdAt: 1 }, urls(2));
      const second = await a.bulk.create({ id: "spans-2", accountId: id, createdAt: 2 }, urls(3));
      const chunk = [second[0]!, first[0]!, second[1]!, first[1]!].map((item) => ({ item, result: { counts: COUNTS } }));
      expect(await b.bulk.complete(chunk, { day: "2026-05-05", dailyQuota: 10 }, 30)).toEqual(["completed", "completed", "completed", "completed"]);
      expect(await a.bulk.job("spans-1", id)).toMatchObject({ urlsCompleted: 2, completedAt: 30 });
      expect(await a.bulk.job("spans-2", id)).toMatchObject({ urlsCompleted: 2, completedAt: null });
      expect(await a.usage.queriesOn(id, "2026-05-05")).toBe(4);
    });
  });
});
