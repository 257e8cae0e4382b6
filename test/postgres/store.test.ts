import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { openPostgresStore } from "../../lib/store/postgres/open.ts";
import type { Store } from "../../lib/store/store.ts";
import { StoreUnavailableError } from "../../lib/store/unavailable.ts";
import { sleep, until } from "../support/processes.ts";
import { postgresSkipReason, postgresStoreDatabase, twoStores } from "../support/stores.ts";

/** What only the PostgreSQL store does (the contract both stores keep is test/store/contract.test.ts). */
const skip = (await postgresSkipReason("test/postgres/store.test.ts")) !== undefined;

// Two stores on one database stand for two processes: each has its own pool.
describe.skipIf(skip)("PostgreSQL store", () => {
  const stores = twoStores(postgresStoreDatabase, [{ name: "p", dailyQuota: 1_000_000, bulkBatchLimit: 10_000, customTtlAllowed: true }]);
  const { account } = stores;
  let a: Store;
  let b: Store;
  beforeAll(() => ({ a, b } = stores));

  it("keeps the accounts version until a change to a key, plan or whitelist is committed by anyone", async () => {
    const id = await account();
    // Until its LISTEN connection is up the version changes on every read (nothing may be cached).
    await until("the store to listen", async () => [await a.accounts.version(), await a.accounts.version()], ([x, y]) => x === y, 10_000);
    let version = await a.accounts.version();
    // Usage and bulk writes are not account changes.
    await b.usage.reserve(id, "2026-01-09", 10);
    await b.bulk.create({ id: "job-version", accountId: id, createdAt: 1 }, [{ url: "u", countUrl: "u" }]);
    await sleep(200);
    expect(await a.accounts.version()).toBe(version);
    const changes = [
      "UPDATE api_key SET revoked_at = now() WHERE account_id = $1",
      "UPDATE account SET whitelist_enabled = true WHERE id = $1",
      "INSERT INTO whitelist_domain (account_id, domain) VALUES ($1, 'c.example')",
      "UPDATE plan SET daily_quota = daily_quota + 1 WHERE name = 'p' AND $1::text IS NOT NULL",
    ];
    const client = new pg.Client({ connectionString: stores.db.url });
    await client.connect();
    try {
      for (const sql of changes) {
        await client.query(sql, [id]);
        const before = version;
        version = await until(`a new version after ${sql}`, async () => a.accounts.version(), (v) => v !== before, 10_000);
      }
    } finally {
      await client.end();
    }
  });

  it("moves the version at once when this process says it committed a change, before its notification comes back", async () => {
    await until("the store to listen", async () => [a.accounts.version(), a.accounts.version()], ([x, y]) => x === y, 10_000);
    const before = a.accounts.version();
    a.accounts.changed();
    const after = a.accounts.version();
    expect(after).not.toBe(before);
    expect(a.accounts.version()).toBe(after);
  });

  it("changes a tracked URL's aliases while a refresh of it is finishing, without a deadlock", async () => {
    const id = await account();
    const [urlId] = [...(await a.history.idsOf(["https://deadlock.example/page"])).values()];
    await a.tracked.add(id, [urlId!], 100, 1_000);
    const refresh = new pg.Client({ connectionString: stores.db.url });
    await refresh.connect();
    try {
      // A refresh completing locks the schedule row first, then the URL's tracked rows.
      await refresh.query("BEGIN");
      await refresh.query("UPDATE refresh_schedule SET last_refreshed_at = 2000 WHERE url_id = $1", [urlId]);
      const aliases = b.tracked.setAliases(id, urlId!, ["https://old.deadlock.example/page"], 3_000);
      await sleep(300);
      await refresh.query("UPDATE tracked_url SET last_refreshed_at = 2000 WHERE url_id = $1", [urlId]);
      await refresh.query("COMMIT");
      expect(await aliases).toBe(true);
    } finally {
      await refresh.end();
    }
    expect((await a.tracked.trackersOf([urlId!])).get(urlId!)?.[0]?.aliases).toEqual(["https://old.deadlock.example/page"]);
  });

  it("records a batch of observations given in any order beside another process's batch over the same URLs, without a deadlock", async () => {
    const ids = [...(await a.history.idsOf(["https://deadlock.example/one", "https://deadlock.example/two"])).values()].sort((x, y) => x - y);
    const hour = Math.floor(Date.UTC(2026, 2, 1) / 3_600_000);
    const other = new pg.Client({ connectionString: stores.db.url });
    await other.connect();
    try {
      // The other process writes its batch in url_id order and has written the first row.
      const insert = "INSERT INTO observation (url_id, hour, observed_at, pinterest) VALUES ($1, $2, $3, 1) ON CONFLICT (url_id, hour) DO UPDATE SET pinterest = 1";
      await other.query("BEGIN");
      await other.query(insert, [ids[0], hour, hour * 3_600_000]);
      const values = { Pinterest: 2 };
      const recorded = b.history.record([
        { urlId: ids[1]!, at: hour * 3_600_000 + 1, values },
        { urlId: ids[0]!, at: hour * 3_600_000 + 1, values },
      ]);
      await sleep(300);
      await other.query(insert, [ids[1], hour, hour * 3_600_000]);
      await other.query("COMMIT");
      await recorded;
    } finally {
      await other.end();
    }
    for (const id of ids) expect((await a.history.points(id, hour * 3_600_000, (hour + 1) * 3_600_000))[0]?.values.Pinterest).toBe(2);
  });

  it("leases due URLs past a row another transaction holds, without waiting for it", async () => {
    const id = await account();
    const urlIds = [...(await a.history.idsOf(["https://claim.example/held", "https://claim.example/free"])).values()];
    await a.tracked.add(id, urlIds, 100, 1_000);
    const holder = new pg.Client({ connectionString: stores.db.url });
    await holder.connect();
    try {
      await holder.query("BEGIN");
      await holder.query("SELECT 1 FROM refresh_schedule WHERE url_id = $1 FOR UPDATE", [urlIds[0]]);
      const claimed = await Promise.race([b.tracked.claimDue(2_000, 1_000_000, 60_000, "skip"), sleep(5_000).then(() => "waited" as const)]);
      expect(claimed === "waited" ? claimed : claimed.map((d) => d.urlId).filter((u) => urlIds.includes(u))).toEqual([urlIds[1]]);
      await holder.query("COMMIT");
    } finally {
      await holder.end();
    }
    expect((await a.tracked.claimDue(2_000, 1_000_000, 60_000, "later")).map((d) => d.urlId).filter((u) => urlIds.includes(u))).toEqual([urlIds[0]]);
  });

  it("grants a bulk batch nothing when its usage row is deleted while the batch waits for it", async () => {
    const id = await account();
    const day = "2026-06-01";
    const urls = [1, 2].map((n) => ({ url: `https://usage-gone.example/${n}`, countUrl: `https://usage-gone.example/${n}` }));
    const queued = await a.bulk.create({ id: "usage-gone", accountId: id, createdAt: 1 }, urls);
    const holder = new pg.Client({ connectionString: stores.db.url });
    await holder.connect();
    try {
      await holder.query("INSERT INTO daily_usage (account_id, day, queries) VALUES ($1, $2, 0)", [id, day]);
      await holder.query("BEGIN");
      await holder.query("SELECT 1 FROM daily_usage WHERE account_id = $1 AND day = $2 FOR UPDATE", [id, day]);
      const completing = b.bulk.complete(queued.map((item) => ({ item, result: { counts: { Facebook: null, Pinterest: 1 } } })), { day, dailyQuota: 1 }, 5);
      const waiting = "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'";
      await until("the batch to wait for the usage row", async () => (await holder.query<{ n: number }>(waiting)).rows[0]!.n, (n) => n > 0);
      await holder.query("DELETE FROM daily_usage WHERE account_id = $1 AND day = $2", [id, day]);
      await holder.query("COMMIT");
      expect(await completing).toEqual(["quota_exhausted", "quota_exhausted"]);
    } finally {
      await holder.end();
    }
    expect(await a.bulk.queued({ id: "usage-gone", accountId: id }, 0, 10)).toHaveLength(2);
    expect(await a.bulk.job("usage-gone", id)).toMatchObject({ urlsCompleted: 0, completedAt: null });
  });

  it("tells an unreachable server (a 503) from a failing query", async () => {
    const nowhere = openPostgresStore("postgresql://postgres@127.0.0.1:1/test");
    const refused = await nowhere.ping().then(() => null, (error: unknown) => error);
    expect(refused).toBeInstanceOf(StoreUnavailableError);
    await nowhere.close();
  });
});
