import { beforeAll, describe, expect, it } from "vitest";
import { foldKeyUsage } from "../../lib/keys/key-usage.ts";
import type { RequestLogRow } from "../../lib/store/requests.ts";
import type { Store } from "../../lib/store/store.ts";
import { requestId } from "../../service/requests/request-id.ts";
import { postgresSkipReason, postgresStoreDatabase, sqliteStoreDatabase, twoStores } from "../support/stores.ts";

/** The keys page's chart: the request log counted per key and hour on both stores, folded into the quota zone's days. */
const skipPostgres = (await postgresSkipReason("test/keys/key-usage.test.ts")) !== undefined;
const drivers = [
  { name: "SQLite", database: sqliteStoreDatabase, skip: false },
  { name: "PostgreSQL", database: postgresStoreDatabase, skip: skipPostgres },
];

const HOUR = 3_600_000;
/** 2026-03-10 12:00 in New York (UTC−4 after 8 March): a fixed time, the fold takes it from the caller. */
const NOW = Date.UTC(2026, 2, 10, 16);
const ZONE = "America/New_York";

const row = (accountId: string, time: number, keyId: string | null, status = 200): RequestLogRow => ({
  id: requestId(time),
  accountId,
  time,
  keyId,
  method: "GET",
  path: "/v1.0/",
  query: "",
  status,
  errorType: status >= 400 ? "quota_exceeded" : null,
  durationMs: 1,
  url: null,
  quotaSpent: status >= 400 ? 0 : 1,
  ip: "203.0.113.0/24",
  userAgent: null,
});

describe.each(drivers)("requests per key on $name", ({ database, skip }) => {
  const stores = twoStores(database, [{ name: "big", dailyQuota: 100, bulkBatchLimit: 0, customTtlAllowed: false }], skip);
  let store: Store;
  beforeAll(() => ({ a: store } = stores));

  it.skipIf(skip)("counts each key's requests and failures per hour, only the account's, and folds them into the account's days", async () => {
    const account = await stores.account();
    const other = await stores.account();
    const key = `key-${account}`;
    // 03:30 UTC on the 10th is 23:30 on the 9th in New York; 04:30 UTC is 00:30 on the 10th.
    const late9th = Date.UTC(2026, 2, 10, 3, 30);
    const early10th = Date.UTC(2026, 2, 10, 4, 30);
    await store.requests.insert([
      row(account, late9th, key),
      row(account, late9th + 60_000, key, 429),
      row(account, early10th, key),
      row(account, early10th + 1, null),
      row(account, NOW - 20 * 24 * HOUR, key),
      row(other, early10th, `key-${other}`),
    ]);
    const hours = await store.requests.hourlyByKey(account, NOW - 15 * 24 * HOUR, NOW + HOUR);
    expect(hours.sort((x, y) => x.hour - y.hour || String(x.keyId).localeCompare(String(y.keyId)))).toEqual([
      { keyId: key, hour: Date.UTC(2026, 2, 10, 3), requests: 2, errors: 1 },
      { keyId: key, hour: Date.UTC(2026, 2, 10, 4), requests: 1, errors: 0 },
      { keyId: null, hour: Date.UTC(2026, 2, 10, 4), requests: 1, errors: 0 },
    ]);

    const usage = foldKeyUsage(hours, new Map([[key, "Plugin"]]), ZONE, NOW, 3);
    expect(usage.days).toEqual(["2026-03-08", "2026-03-09", "2026-03-10"]);
    expect(usage.series).toEqual([
      { keyId: key, name: "Plugin", counts: [0, 2, 1], errors: 1 },
      { keyId: null, name: "Dashboard", counts: [0, 0, 1], errors: 0 },
    ]);
    // In UTC the same hours are one day.
    expect(foldKeyUsage(hours, new Map(), "UTC", NOW, 2).series).toEqual([
      { keyId: key, name: "Deleted key", counts: [0, 3], errors: 1 },
      { keyId: null, name: "Dashboard", counts: [0, 1], errors: 0 },
    ]);
  });
});
