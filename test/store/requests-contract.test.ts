import type { IncomingMessage } from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import type { RequestLogRow } from "../../lib/store/requests.ts";
import type { Store } from "../../lib/store/store.ts";
import { attributeRequest, spendQuota } from "../../service/requests/attribution.ts";
import { listRequests } from "../../service/requests/list-requests.ts";
import { openRequestLog } from "../../service/requests/open-request-log.ts";
import { RequestLogPruner } from "../../service/requests/pruner.ts";
import { idBefore } from "../../lib/store/request-chunks.ts";
import { requestId } from "../../service/requests/request-id.ts";
import { RequestLog, type Timers } from "../../service/requests/request-log.ts";
import { postgresSkipReason, postgresStoreDatabase, sqliteStoreDatabase, twoStores } from "../support/stores.ts";

/** The request log's store, writer and pruner, one contract run unchanged on both stores. */
const skipPostgres = (await postgresSkipReason("test/store/requests-contract.test.ts")) !== undefined;
const drivers = [
  { name: "SQLite", database: sqliteStoreDatabase, skip: false },
  { name: "PostgreSQL", database: postgresStoreDatabase, skip: skipPostgres },
];

const DAY = 86_400_000;
/** A fixed time (2026-03-01T00:00Z): the writer and pruner take every time from their caller. */
const T0 = Date.UTC(2026, 2, 1);

/** A clock and timers the test moves: `advance` runs what falls due, in order, each time waiting for `settle`. */
function manualTime(start: number, settle: () => Promise<unknown> = async () => {}) {
  let now = start;
  let pending: { at: number; run: () => void }[] = [];
  const timers: Timers = {
    set(run, ms) {
      const entry = { at: now + ms, run };
      pending.push(entry);
      return entry;
    },
    clear(handle) {
      pending = pending.filter((entry) => entry !== handle);
    },
  };
  return {
    now: () => now,
    timers,
    async advance(ms: number) {
      const until = now + ms;
      for (;;) {
        const due = pending.filter((entry) => entry.at <= until).sort((x, y) => x.at - y.at)[0];
        if (!due) break;
        pending = pending.filter((entry) => entry !== due);
        now = due.at;
        due.run();
        // The insert it starts is done before the next timer is looked at.
        await settle();
        await new Promise((resolve) => setImmediate(resolve));
      }
      now = until;
    },
  };
}

/** A request as Node's server hands it over, enough for the log: method, target, headers and socket. */
const request = (target: string, address = "203.0.113.77", agent = "test-agent/1.0") =>
  ({ method: "GET", url: target, headers: { "user-agent": agent }, socket: { remoteAddress: address } }) as unknown as IncomingMessage;

const row = (accountId: string, time: number, fields: Partial<RequestLogRow> = {}): RequestLogRow => ({
  id: requestId(time),
  accountId,
  time,
  keyId: null,
  method: "GET",
  path: "/v1.0/",
  query: "url=https%3A%2F%2Fa.example%2F",
  status: 200,
  errorType: null,
  durationMs: 3,
  url: "https://a.example/",
  quotaSpent: 1,
  ip: "203.0.113.0/24",
  userAgent: "ua",
  ...fields,
});

describe.each(drivers)("the $name store's request log", ({ database, skip }) => {
  const stores = twoStores(database, [{ name: "big", dailyQuota: 100, bulkBatchLimit: 0, customTtlAllowed: false }], skip);
  let a: Store;
  let b: Store;
  beforeAll(() => ({ a, b } = stores));

  describe.skipIf(skip)("", () => {
    it("inserts at most once per 100 ms, whatever the rate of requests, and writes what waits on stop", async () => {
      const account = await stores.account();
      let inserting: Promise<void> = Promise.resolve();
      const time = manualTime(T0, () => inserting);
      const inserts: { at: number; rows: number }[] = [];
      const store = {
        insert: (rows: readonly RequestLogRow[]) => {
          inserts.push({ at: time.now(), rows: rows.length });
          return (inserting = a.requests.insert(rows));
        },
      };
      const log = new RequestLog(store, { now: time.now, timers: time.timers });
      // 50 requests every 10 ms for a second.
      for (let tick = 0; tick < 100; tick++) {
        for (let i = 0; i < 50; i++) {
          const req = request(`/v1.0/?url=https%3A%2F%2Fa.example%2F${tick}&apikey=SECRET${i}`);
          attributeRequest(req, account, null);
          spendQuota(req, 1);
          log.record(req, 200, 2);
        }
        await time.advance(10);
      }
      await log.stop();
      const gaps = inserts.slice(1).map((insert, i) => insert.at - inserts[i]!.at);
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(100);
      expect(inserts.length).toBeGreaterThanOrEqual(10);
      expect(inserts.length).toBeLessThanOrEqual(11);
      expect(inserts.reduce((sum, insert) => sum + insert.rows, 0)).toBe(5_000);
      const stored = await b.requests.list(account, {}, 5_000);
      expect(stored).toHaveLength(5_000);
      expect(stored.every((r) => r.quotaSpent === 1 && r.ip === "203.0.113.0/24" && !/SECRET/.test(JSON.stringify(r)))).toBe(true);
      expect(log.dropped).toBe(0);
    });

    it("behind TRUSTED_PROXIES keeps the client's network from X-Forwarded-For, and ignores the header from anyone else", async () => {
      const account = await stores.account();
      const kit = openRequestLog({ REQUEST_LOG: "on", REQUEST_LOG_DAYS: 30, TRUSTED_PROXIES: ["10.0.0.0/8"] }, a.requests, { worker: false, now: () => T0 });
      const forwarded = (socket: string) =>
        ({ ...request("/v2/usage", socket), headers: { "x-forwarded-for": "192.0.2.1, 198.51.100.7, 10.0.0.5" } }) as unknown as IncomingMessage;
      for (const req of [forwarded("10.1.2.3"), forwarded("203.0.113.77")]) {
        attributeRequest(req, account, null);
        kit.log!.record(req, 200, 1);
      }
      await kit.stop();
      const ips = (await b.requests.list(account, {}, 10)).map((r) => r.ip).sort();
      expect(ips).toEqual(["198.51.100.0/24", "203.0.113.0/24"]);
    });

    it("drops past 10,000 waiting rows and counts them, without waiting or throwing", async () => {
      const account = await stores.account();
      const time = manualTime(T0);
      const log = new RequestLog(a.requests, { now: time.now, timers: time.timers });
      for (let i = 0; i < 10_005; i++) {
        const req = request("/v2/usage?apikey=K");
        attributeRequest(req, account, null);
        log.record(req, 200, 1);
      }
      expect(log.waiting).toBe(10_000);
      expect(log.dropped).toBe(5);
      await log.stop();
      expect(await b.requests.list(account, {}, 20_000)).toHaveLength(10_000);
    });

    it("logs only attributed requests, once each", async () => {
      const account = await stores.account();
      const time = manualTime(T0);
      const log = new RequestLog(a.requests, { now: time.now, timers: time.timers });
      const named = request("/v2/usage");
      attributeRequest(named, account, "key_1");
      log.record(named, 200, 1);
      log.record(named, 200, 1);
      log.record(request("/v2/usage?apikey=bad"), 401, 1);
      await log.stop();
      expect(await b.requests.list(account, {}, 10)).toMatchObject([{ keyId: "key_1", path: "/v2/usage", query: "" }]);
    });

    it("lists an account's requests newest first, filtered, a page at a time, and never another account's", async () => {
      const [owner, other] = [await stores.account(), await stores.account()];
      const rows = [
        row(owner, T0 + 1_000, { status: 200, path: "/v1.0/" }),
        row(owner, T0 + 2_000, { status: 403, errorType: "quota_exceeded", path: "/v1.0/" }),
        row(owner, T0 + 3_000, { status: 404, errorType: "not_found", path: "/v2/history", keyId: "key_a" }),
        row(owner, T0 + 3_000, { status: 200, path: "/v2/counts", keyId: "key_a" }),
        row(owner, T0 + 4_000, { status: 500, errorType: "internal_error", path: "/v2/counts" }),
        row(other, T0 + 2_500, { status: 403, errorType: "quota_exceeded" }),
      ];
      await a.requests.insert(rows);
      const ids = async (filter: Parameters<typeof listRequests>[2]) => (await listRequests(b.requests, owner, filter)).requests.map((r) => r.time - T0);
      expect(await ids({ limit: 10 })).toEqual([4_000, 3_000, 3_000, 2_000, 1_000]);
      expect(await ids({ limit: 10, status: { min: 400, max: 499 } })).toEqual([3_000, 2_000]);
      expect(await ids({ limit: 10, status: { min: 403, max: 403 } })).toEqual([2_000]);
      expect(await ids({ limit: 10, errorType: "quota_exceeded" })).toEqual([2_000]);
      expect(await ids({ limit: 10, keyId: "key_a" })).toEqual([3_000, 3_000]);
      expect(await ids({ limit: 10, path: "/v2/counts" })).toEqual([4_000, 3_000]);
      expect(await ids({ limit: 10, from: T0 + 2_000, to: T0 + 4_000 })).toEqual([3_000, 3_000, 2_000]);

      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await listRequests(b.requests, owner, { limit: 2, cursor });
        seen.push(...page.requests.map((r) => r.id));
        cursor = page.next ?? undefined;
      } while (cursor);
      expect(seen).toEqual([...rows.slice(0, 5)].sort((x, y) => y.time - x.time || (y.id < x.id ? -1 : 1)).map((r) => r.id));
      await expect(listRequests(b.requests, owner, { limit: 2, cursor: "bm90LWEtY3Vyc29y" })).rejects.toMatchObject({ code: "invalid_parameter" });

      expect(await b.requests.get(owner, rows[0]!.id)).toMatchObject({ path: "/v1.0/", status: 200 });
      expect(await b.requests.get(other, rows[0]!.id)).toBeNull();
    });

    it("merges chunks that overlap in time (two processes) newest first, across pages, and finds each request by id", async () => {
      const account = await stores.account();
      // Two processes' inserts of the same seconds, and a request from the minute before.
      const first = Array.from({ length: 30 }, (_, i) => row(account, T0 + 2 * i, { status: i % 5 === 0 ? 500 : 200, keyId: i % 2 ? "key_a" : null }));
      const second = Array.from({ length: 30 }, (_, i) => row(account, T0 + 2 * i + 1, { path: "/v2/counts" }));
      const earlier = row(account, T0 - 30_000);
      await a.requests.insert(first);
      await a.requests.insert([...second, earlier]);
      // More chunks than one round trip reads, one a minute.
      const older = Array.from({ length: 25 }, (_, i) => row(account, T0 - 120_000 - i * 60_000));
      for (const r of older) await a.requests.insert([r]);
      const all = [...first, ...second, earlier, ...older].sort((x, y) => y.time - x.time);
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await listRequests(b.requests, account, { limit: 7, cursor });
        seen.push(...page.requests.map((r) => r.id));
        cursor = page.next ?? undefined;
      } while (cursor);
      expect(seen).toEqual(all.map((r) => r.id));
      const failed = await listRequests(b.requests, account, { limit: 100, status: { min: 500, max: 599 } });
      expect(failed.requests.map((r) => r.time - T0)).toEqual([50, 40, 30, 20, 10, 0]);
      const inWindow = await listRequests(b.requests, account, { limit: 100, from: T0 + 10, to: T0 + 20, path: "/v2/counts" });
      expect(inWindow.requests.map((r) => r.time - T0)).toEqual([19, 17, 15, 13, 11]);
      for (const r of [first[7]!, second[29]!, earlier]) expect(await b.requests.get(account, r.id)).toEqual(r);
      expect(await b.requests.hourlyByKey(account, T0 - 3_600_000, T0 + 3_600_000)).toEqual(
        expect.arrayContaining([
          { keyId: null, hour: T0 - 3_600_000, requests: 26, errors: 0 },
          { keyId: null, hour: T0, requests: 45, errors: 3 },
          { keyId: "key_a", hour: T0, requests: 15, errors: 3 },
        ]),
      );
    });

    it("prunes chunks older than the retention in bounded batches, oldest first, and goes with its account", async () => {
      const account = await stores.account();
      // A chunk per minute: 25 old ones, one young one.
      const old = Array.from({ length: 25 }, (_, i) => row(account, T0 - 40 * DAY + i * 60_000));
      const young = Array.from({ length: 5 }, (_, i) => row(account, T0 - 10 * DAY + i));
      await a.requests.insert([...old, ...young]);
      const deletes: number[] = [];
      const store = { prune: async (below: string, limit: number) => { const gone = await a.requests.prune(below, limit); deletes.push(gone); return gone; } };
      const pruner = new RequestLogPruner(store, { days: 30, now: () => T0, batch: 10 });
      expect(await pruner.pruneOnce()).toBeGreaterThanOrEqual(25);
      expect(Math.max(...deletes)).toBeLessThanOrEqual(10);
      expect((await b.requests.list(account, {}, 100)).map((r) => r.id)).toEqual(young.map((r) => r.id).reverse());
      expect(idBefore(T0) < requestId(T0)).toBe(true);

      await stores.db.prisma.account.delete({ where: { id: account } });
      expect(await b.requests.list(account, {}, 100)).toEqual([]);
      // A row of an account deleted meanwhile is skipped; the rest of its batch is written.
      const kept = await stores.account();
      await a.requests.insert([row(account, T0), row(kept, T0)]);
      expect(await b.requests.list(kept, {}, 100)).toHaveLength(1);
    });
  });
});
