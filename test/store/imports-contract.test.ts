import { beforeAll, describe, expect, it } from "vitest";
import { noneNotAdded, type ImportOutcome } from "../../lib/store/imports.ts";
import type { Store } from "../../lib/store/store.ts";
import { postgresSkipReason, postgresStoreDatabase, sqliteStoreDatabase, twoStores } from "../support/stores.ts";

/** The sitemap and feed imports' store, one contract run unchanged on both stores (two stores stand for two worker processes). */
const skipPostgres = (await postgresSkipReason("test/store/imports-contract.test.ts")) !== undefined;
const drivers = [
  { name: "SQLite", database: sqliteStoreDatabase, skip: false },
  { name: "PostgreSQL", database: postgresStoreDatabase, skip: skipPostgres },
];

const DAY = 86_400_000;
/** A fixed day (2026-03-01T00:00Z): the store takes every time from its caller. */
const T0 = Date.UTC(2026, 2, 1);
const LEASE = 60_000;
const CAPS = { pending: 5, feeds: 20 };

const outcome = (fields: Partial<ImportOutcome>): ImportOutcome => ({
  status: "done",
  urlsFound: 0,
  added: 0,
  notAdded: noneNotAdded(),
  files: 0,
  stopped: null,
  error: null,
  nextReadAt: null,
  ...fields,
});

describe.each(drivers)("the $name store's sitemap and feed imports", ({ database, skip }) => {
  const stores = twoStores(database, [{ name: "big", dailyQuota: 100, bulkBatchLimit: 0, customTtlAllowed: false }], skip);
  let a: Store;
  let b: Store;
  beforeAll(() => ({ a, b } = stores));

  /** Finishes whatever else is runnable at `at` (earlier tests' imports), until `id` is claimed: its claim. */
  async function claimOnly(store: Store, id: string, at: number, token: string) {
    let claimed = await store.imports.claim(at, LEASE, token);
    while (claimed && claimed.id !== id) {
      await store.imports.finish(claimed.id, token, outcome({}), at);
      claimed = await store.imports.claim(at, LEASE, token);
    }
    return claimed;
  }

  describe.skipIf(skip)("", () => {
    it("queues, leases to one worker, records progress and the outcome by reason, and shows an import only to its account", async () => {
      const at = T0;
      const owner = await stores.account();
      await a.imports.create({ id: "imp-1", accountId: owner, kind: "sitemap", sourceUrl: "https://s.example/sitemap.xml", at }, CAPS);
      expect(await b.imports.get(owner, "imp-1")).toMatchObject({ status: "queued", urlsFound: 0, added: 0, notAdded: noneNotAdded(), attempts: 0, stopped: null });
      expect(await b.imports.get(await stores.account(), "imp-1")).toBeNull();
      const [x, y] = await Promise.all([a.imports.claim(at + 1, LEASE, "worker-a"), b.imports.claim(at + 1, LEASE, "worker-b")]);
      expect([x, y].filter(Boolean)).toHaveLength(1);
      expect((x ?? y)!).toMatchObject({ id: "imp-1", status: "running", attempts: 1 });
      const token = x ? "worker-a" : "worker-b";
      expect(await a.imports.claim(at + 2, LEASE, "worker-c")).toBeNull();

      const progress = { urlsFound: 600, added: 500, notAdded: { ...noneNotAdded(), already_tracked: 90, too_long: 10 }, files: 2 };
      expect(await a.imports.progress("imp-1", "someone-else", progress, at + 3)).toBe(false);
      expect(await a.imports.progress("imp-1", token, progress, at + 3)).toBe(true);
      expect(await b.imports.get(owner, "imp-1")).toMatchObject({ status: "running", ...progress, updatedAt: at + 3 });

      await b.imports.finish("imp-1", token, outcome({ ...progress, urlsFound: 700, stopped: "tracked_limit" }), at + 4);
      expect(await a.imports.get(owner, "imp-1")).toMatchObject({ status: "done", urlsFound: 700, added: 500, stopped: "tracked_limit", updatedAt: at + 4 });
      expect(await a.imports.progress("imp-1", token, progress, at + 5)).toBe(false);
      expect(await a.imports.claim(at + 10 * DAY, LEASE, "worker-a")).toBeNull();
      expect((await a.imports.list(owner, 10)).map((i) => i.id)).toEqual(["imp-1"]);
    });

    it("holds an account to its caps when requests race: the count and the insert are one step", async () => {
      const owner = await stores.account();
      const at = T0 + 20 * DAY;
      const tries = Array.from({ length: 12 }, (_, i) =>
        (i % 2 ? a : b).imports.create({ id: `race-${i}`, accountId: owner, kind: "sitemap", sourceUrl: `https://s.example/${i}.xml`, at }, { pending: 5, feeds: 20 }),
      );
      const answers = await Promise.all(tries);
      expect(answers.filter((answer) => answer === null)).toHaveLength(5);
      expect(answers.filter((answer) => answer === "pending")).toHaveLength(7);
      for (let i = 0; i < 12; i++) await a.imports.cancel(owner, `race-${i}`, at + 1);
    });

    it("runs one import of an account at a time, and other accounts' beside it", async () => {
      const at = T0 + 50 * DAY;
      const [one, other] = [await stores.account(), await stores.account()];
      await a.imports.create({ id: "one-1", accountId: one, kind: "sitemap", sourceUrl: "https://s.example/1.xml", at }, CAPS);
      await a.imports.create({ id: "one-2", accountId: one, kind: "sitemap", sourceUrl: "https://s.example/2.xml", at: at + 1 }, CAPS);
      await a.imports.create({ id: "other-1", accountId: other, kind: "sitemap", sourceUrl: "https://s.example/3.xml", at: at + 2 }, CAPS);
      const first = await claimOnly(a, "one-1", at + 3, "w");
      expect(first?.id).toBe("one-1");
      // one-2 waits for one-1; other-1 runs beside it.
      expect((await b.imports.claim(at + 4, LEASE, "w2"))?.id).toBe("other-1");
      expect(await b.imports.claim(at + 5, LEASE, "w2")).toBeNull();
      await a.imports.finish("one-1", "w", outcome({}), at + 6);
      expect((await b.imports.claim(at + 7, LEASE, "w2"))?.id).toBe("one-2");
      await b.imports.finish("one-2", "w2", outcome({}), at + 8);
      await b.imports.finish("other-1", "w2", outcome({}), at + 8);
    });

    it("takes over an import whose worker died once its lease ran out, counting the attempt; a stopping worker's goes back uncounted", async () => {
      const owner = await stores.account();
      const at = T0 + 100 * DAY;
      await a.imports.create({ id: "imp-2", accountId: owner, kind: "sitemap", sourceUrl: "https://s.example/s.xml", at }, CAPS);
      expect(await claimOnly(a, "imp-2", at, "dead")).toMatchObject({ attempts: 1 });
      expect(await a.imports.progress("imp-2", "dead", { urlsFound: 5, added: 5, notAdded: noneNotAdded(), files: 1 }, at + 1)).toBe(true);
      expect(await b.imports.claim(at + LEASE - 1, LEASE, "next")).toBeNull();
      // Progress starts over with the new run.
      expect(await b.imports.claim(at + LEASE, LEASE, "next")).toMatchObject({ id: "imp-2", attempts: 2, urlsFound: 0, added: 0 });
      // The dead worker's late writes are refused.
      expect(await a.imports.progress("imp-2", "dead", { urlsFound: 9, added: 9, notAdded: noneNotAdded(), files: 1 }, at + LEASE + 1)).toBe(false);
      await a.imports.finish("imp-2", "dead", outcome({ added: 9 }), at + LEASE + 1);
      expect(await a.imports.get(owner, "imp-2")).toMatchObject({ status: "running", added: 0 });
      await b.imports.release("imp-2", "next", at + LEASE + 2);
      expect(await a.imports.get(owner, "imp-2")).toMatchObject({ status: "queued", attempts: 1 });
      expect(await a.imports.claim(at + LEASE + 3, LEASE, "third")).toMatchObject({ id: "imp-2", attempts: 2 });
      await a.imports.finish("imp-2", "third", outcome({}), at + LEASE + 4);
    });

    it("reads a feed again when due, its attempts starting over", async () => {
      const owner = await stores.account();
      const at = T0 + 150 * DAY;
      await a.imports.create({ id: "feed-1", accountId: owner, kind: "feed", sourceUrl: "https://s.example/feed.xml", at }, CAPS);
      await claimOnly(a, "feed-1", at, "w");
      await a.imports.finish("feed-1", "w", outcome({ status: "failed", error: "gone", nextReadAt: at + DAY }), at + 1);
      expect(await a.imports.claim(at + DAY - 1, LEASE, "w")).toBeNull();
      expect(await a.imports.claim(at + DAY, LEASE, "w")).toMatchObject({ id: "feed-1", kind: "feed", attempts: 1, error: null });
      await a.imports.finish("feed-1", "w", outcome({ nextReadAt: at + 2 * DAY }), at + DAY + 1);
    });

    it("cancels a queued or running import (keeping its progress) and a feed's daily read", async () => {
      const owner = await stores.account();
      const at = T0 + 200 * DAY;
      await a.imports.create({ id: "imp-3", accountId: owner, kind: "sitemap", sourceUrl: "https://s.example/s.xml", at }, CAPS);
      await a.imports.create({ id: "imp-4", accountId: owner, kind: "feed", sourceUrl: "https://s.example/f.xml", at }, CAPS);
      await a.imports.create({ id: "imp-5", accountId: owner, kind: "sitemap", sourceUrl: "https://s.example/t.xml", at: at + 1 }, CAPS);
      expect(await b.imports.cancel(owner, "imp-3", at + 1)).toBe(true);
      expect(await b.imports.cancel(await stores.account(), "imp-4", at + 1)).toBe(false);
      expect(await a.imports.get(owner, "imp-3")).toMatchObject({ status: "cancelled" });

      expect((await claimOnly(a, "imp-4", at + 2, "w"))?.id).toBe("imp-4");
      await a.imports.finish("imp-4", "w", outcome({ urlsFound: 1, added: 1, nextReadAt: at + DAY }), at + 2);

      // A running import: its worker's next progress write fails, and its outcome leaves it cancelled.
      expect((await claimOnly(a, "imp-5", at + 2, "w"))?.id).toBe("imp-5");
      expect(await a.imports.progress("imp-5", "w", { urlsFound: 3, added: 3, notAdded: noneNotAdded(), files: 1 }, at + 3)).toBe(true);
      expect(await b.imports.cancel(owner, "imp-5", at + 4)).toBe(true);
      expect(await a.imports.progress("imp-5", "w", { urlsFound: 4, added: 4, notAdded: noneNotAdded(), files: 1 }, at + 5)).toBe(false);
      await a.imports.finish("imp-5", "w", outcome({ urlsFound: 4, added: 4 }), at + 6);
      expect(await a.imports.get(owner, "imp-5")).toMatchObject({ status: "cancelled", added: 4 });

      // A feed read daily still counts against the feeds cap; cancelled, it no longer does.
      expect(await b.imports.create({ id: "imp-6", accountId: owner, kind: "feed", sourceUrl: "https://s.example/g.xml", at: at + 9 }, { pending: 5, feeds: 1 })).toBe("feeds");
      expect(await b.imports.cancel(owner, "imp-4", at + 9)).toBe(true);
      expect(await b.imports.create({ id: "imp-6", accountId: owner, kind: "feed", sourceUrl: "https://s.example/g.xml", at: at + 9 }, { pending: 5, feeds: 1 })).toBeNull();
      expect(await b.imports.cancel(owner, "imp-6", at + 10)).toBe(true);
      expect(await a.imports.claim(at + 2 * DAY, LEASE, "w")).toBeNull();
      expect(await a.imports.get(owner, "imp-4")).toMatchObject({ status: "done", nextReadAt: null });
    });
  });
});
