import { beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../lib/store/store.ts";
import { postgresSkipReason, postgresStoreDatabase, sqliteStoreDatabase, twoStores } from "../support/stores.ts";

/** The usage concern's refused queries, one contract run unchanged on both stores (two stores stand for two processes). */
const skipPostgres = (await postgresSkipReason("test/store/usage-contract.test.ts")) !== undefined;
const drivers = [
  { name: "SQLite", database: sqliteStoreDatabase, skip: false },
  { name: "PostgreSQL", database: postgresStoreDatabase, skip: skipPostgres },
];

const refused = (quota: number, whitelist: number, invalid: number) => ({ quota, whitelist, invalid });

describe.each(drivers)("the $name store's refused queries", ({ database, skip }) => {
  const stores = twoStores(database, [{ name: "p", dailyQuota: 10, bulkBatchLimit: 0, customTtlAllowed: false }], skip);
  const { account } = stores;
  let a: Store;
  let b: Store;
  beforeAll(() => ({ a, b } = stores));

  describe.skipIf(skip)("refusals", () => {
    it("adds each batch to the account's day, from any process, and reads the range in day order", async () => {
      const id = await account();
      await a.usage.addRefusals([
        { accountId: id, day: "2026-05-03", refused: refused(1, 0, 2) },
        { accountId: id, day: "2026-05-01", refused: refused(0, 4, 0) },
      ]);
      await Promise.all([
        b.usage.addRefusals([{ accountId: id, day: "2026-05-03", refused: refused(5, 1, 0) }]),
        a.usage.addRefusals([{ accountId: id, day: "2026-05-03", refused: refused(0, 0, 7) }]),
      ]);
      expect(await b.usage.refusalsBetween(id, "2026-05-01", "2026-05-31")).toEqual([
        { day: "2026-05-01", refused: refused(0, 4, 0) },
        { day: "2026-05-03", refused: refused(6, 1, 9) },
      ]);
      // Both ends are included; days outside are not.
      expect(await a.usage.refusalsBetween(id, "2026-05-02", "2026-05-03")).toEqual([{ day: "2026-05-03", refused: refused(6, 1, 9) }]);
      expect(await a.usage.refusalsBetween(id, "2026-05-04", "2026-05-31")).toEqual([]);
    });

    it("adds repeats of one account's day within a batch together", async () => {
      const id = await account();
      await a.usage.addRefusals([
        { accountId: id, day: "2026-06-01", refused: refused(1, 0, 0) },
        { accountId: id, day: "2026-06-01", refused: refused(2, 3, 0) },
      ]);
      expect(await b.usage.refusalsBetween(id, "2026-06-01", "2026-06-01")).toEqual([{ day: "2026-06-01", refused: refused(3, 3, 0) }]);
    });

    it("keeps each account's refusals its own, and neither reads nor touches the served queries", async () => {
      const [x, y] = [await account(), await account()];
      await a.usage.reserve(x, "2026-07-01", 10);
      await a.usage.addRefusals([
        { accountId: x, day: "2026-07-01", refused: refused(2, 0, 0) },
        { accountId: y, day: "2026-07-01", refused: refused(0, 0, 1) },
      ]);
      expect(await b.usage.refusalsBetween(x, "2026-07-01", "2026-07-01")).toEqual([{ day: "2026-07-01", refused: refused(2, 0, 0) }]);
      expect(await b.usage.refusalsBetween(y, "2026-07-01", "2026-07-01")).toEqual([{ day: "2026-07-01", refused: refused(0, 0, 1) }]);
      expect(await b.usage.between(x, "2026-07-01", "2026-07-01")).toEqual([{ day: "2026-07-01", queries: 1 }]);
      expect(await b.usage.between(y, "2026-07-01", "2026-07-01")).toEqual([]);
      // A usage history can still be imported for an account with refusals only: they are not usage rows.
      expect(await b.usage.importHistory(y, [{ day: "2026-06-30", queries: 3 }])).toBe(true);
    });

    it("skips an account that no longer exists and adds the rest of the batch", async () => {
      const id = await account();
      await a.usage.addRefusals([
        { accountId: "no-such-account", day: "2026-08-01", refused: refused(1, 1, 1) },
        { accountId: id, day: "2026-08-01", refused: refused(0, 2, 0) },
      ]);
      expect(await b.usage.refusalsBetween(id, "2026-08-01", "2026-08-01")).toEqual([{ day: "2026-08-01", refused: refused(0, 2, 0) }]);
      expect(await b.usage.refusalsBetween("no-such-account", "0000-01-01", "9999-12-31")).toEqual([]);
      await a.usage.addRefusals([]);
    });
  });

  describe.skipIf(skip)("counts written back (raiseTo)", () => {
    it("raises each row to the total given, never lowers one, takes a row's highest within a batch, and skips a missing account", async () => {
      const [x, y] = [await account(), await account()];
      await a.usage.reserveUpTo(x, "2026-09-01", 10, 4, 1);
      await Promise.all([
        a.usage.raiseTo([
          { accountId: x, day: "2026-09-01", queries: 7 },
          { accountId: "no-such-account", day: "2026-09-01", queries: 3 },
          { accountId: y, day: "2026-09-02", queries: 2 },
          { accountId: y, day: "2026-09-02", queries: 5 },
        ]),
        b.usage.raiseTo([{ accountId: x, day: "2026-09-01", queries: 6 }]),
      ]);
      expect(await b.usage.queriesOn(x, "2026-09-01")).toBe(7);
      expect(await b.usage.queriesOn(y, "2026-09-02")).toBe(5);
      await b.usage.raiseTo([{ accountId: x, day: "2026-09-01", queries: 2 }]);
      expect(await a.usage.queriesOn(x, "2026-09-01")).toBe(7);
      expect(await a.usage.queriesOn("no-such-account", "2026-09-01")).toBe(0);
      await a.usage.raiseTo([]);
    });
  });
});
