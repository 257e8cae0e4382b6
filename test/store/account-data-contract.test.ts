import { beforeAll, describe, expect, it } from "vitest";
import { AccountDeletion } from "../../lib/accounts/account-deletion.ts";
import { ExportGate } from "../../lib/accounts/export-gate.ts";
import { openAccountExport } from "../../lib/accounts/account-export.ts";
import { isPostgresUrl } from "../../lib/db/postgres-url.ts";
import { openOutbox } from "../../lib/mail/outbox.ts";
import { QuotaClock } from "../../lib/quota/clock.ts";
import type { Store } from "../../lib/store/store.ts";
import { FIRST_POINT } from "../../lib/store/tracked.ts";
import { accountExportSchema } from "../../lib/v2/export-schemas.ts";
import { observed, seedAccountData, type SeededAccount } from "../support/account-data.ts";
import { postgresSkipReason, postgresStoreDatabase, sqliteStoreDatabase, twoStores, type StoreDatabase } from "../support/stores.ts";

/** Account export and deletion, one contract run unchanged on both stores. */
const skipPostgres = (await postgresSkipReason("test/store/account-data-contract.test.ts")) !== undefined;
const drivers = [
  { name: "SQLite", database: sqliteStoreDatabase, skip: false },
  { name: "PostgreSQL", database: postgresStoreDatabase, skip: skipPostgres },
];

const HOUR = 3_600_000;
/** A fixed time (2026-03-01T12:00Z): the store and the domain take every time from their caller. */
const T = Date.UTC(2026, 2, 1, 12);
const SECRET = Buffer.from("account-data-contract-test-secret-0123456789");

/** The export's file, failing the test when there is none or the gate refused it. */
async function exportFile(store: Store, accountId: string, now = T + 10 * HOUR) {
  const file = await openAccountExport(store, accountId, now);
  if (file === null || file === "busy") throw new Error(`no export: ${file}`);
  return file;
}

async function exportText(store: Store, accountId: string): Promise<string> {
  return new Response((await exportFile(store, accountId)).body).text();
}

describe.each(drivers)("the $name store's account export and deletion", ({ database, skip }) => {
  const stores = twoStores(database, [{ name: "exporter", dailyQuota: 1000, bulkBatchLimit: 100, customTtlAllowed: false, trackedUrlLimit: 100 }], skip);
  let a: Store;
  let db: StoreDatabase;
  let owner: SeededAccount;
  let other: SeededAccount;
  beforeAll(async () => {
    if (skip) return;
    ({ a, db } = stores);
    const [ownerId, otherId] = [await stores.account(), await stores.account()];
    other = await seedAccountData(a, db.prisma, { id: otherId, tag: "other", earlierAccount: ownerId }, T - 10 * HOUR);
    owner = await seedAccountData(a, db.prisma, { id: ownerId, tag: "owner", earlierAccount: otherId }, T);
  });

  /** Rows of `table` whose `column` is `value`, in SQL either database reads. */
  async function count(table: string, column: string, value: string): Promise<number> {
    const placeholder = isPostgresUrl(db.url) ? "$1" : "?";
    const rows = await db.prisma.$queryRawUnsafe<{ n: number | bigint }[]>(`SELECT COUNT(*) AS n FROM ${table} WHERE ${column} = ${placeholder}`, value);
    return Number(rows[0]!.n);
  }

  async function tablesWithAccountId(): Promise<string[]> {
    const sql = isPostgresUrl(db.url)
      ? "SELECT table_name::text AS name FROM information_schema.columns WHERE column_name = 'account_id' AND table_schema = current_schema()"
      : "SELECT m.name FROM sqlite_master m JOIN pragma_table_info(m.name) c WHERE m.type = 'table' AND c.name = 'account_id'";
    return (await db.prisma.$queryRawUnsafe<{ name: string }[]>(sql)).map((row) => row.name).sort();
  }

  describe.skipIf(skip)("reading", () => {
    it("reads the profile without a secret, and the account's history from when it came to each URL", async () => {
      expect(await a.accounts.profile(owner.id)).toEqual({
        email: owner.email,
        name: "Name owner",
        createdAt: expect.any(Number),
        emailVerifiedAt: T,
        hasPassword: true,
        countVariants: false,
        signInProviders: ["github"],
      });
      expect(await a.accounts.profile("no-such-account")).toBeNull();
      const points = await a.tracked.pointsAfter(owner.id, FIRST_POINT, 100);
      expect(points.map((p) => [p.url, p.point.at])).toEqual([
        [owner.urls[0], T + HOUR],
        [owner.urls[0], T + 2 * HOUR],
        [owner.urls[1], T + HOUR],
      ]);
      // A page at a time, after its last point.
      const [first] = await a.tracked.pointsAfter(owner.id, FIRST_POINT, 1);
      expect(await a.tracked.pointsAfter(owner.id, first!, 100)).toEqual(points.slice(1));
    });

    it("pages a job's counted URLs in submission order", async () => {
      const [v2] = await a.bulk.resultsAfter(owner.jobIds[1]!, 0, 10);
      expect(v2).toMatchObject({ url: "https://owner.example/bulk-v2", completedAt: T + 3, networks: { values: { reddit: { score: 4 } } } });
      expect(await a.bulk.resultsAfter(owner.jobIds[1]!, v2!.id, 10)).toEqual([]);
    });
  });

  describe.skipIf(skip)("the export", () => {
    it("holds every section of the account's own data and nothing of another account's", async () => {
      const text = await exportText(a, owner.id);
      const doc = accountExportSchema.parse(JSON.parse(text));
      expect(doc).toMatchObject({
        format: "sharecount-export",
        version: 1,
        exported_at: new Date(T + 10 * HOUR).toISOString(),
        profile: { id: owner.id, email: owner.email, name: "Name owner", has_password: true, sign_in_providers: ["github"], settings: { count_variants: false, networks: null } },
        plan: { name: "exporter", daily_quota: 1000, bulk_batch_limit: 100, tracked_url_limit: 100 },
        whitelist: { enabled: false, domains: ["a.example", "b.example"] },
      });
      expect(doc.usage).toEqual({
        allocations: [{ from: "2026-03-01", daily_quota: 1000 }],
        days: [
          { day: "2026-03-01", served: 3, refused: { quota: 0, whitelist: 0, invalid: 0 } },
          { day: "2026-03-02", served: 0, refused: { quota: 1, whitelist: 0, invalid: 2 } },
        ],
      });
      expect(doc.tracked_urls.map((t) => [t.url, t.added_at])).toEqual(owner.urls.map((url) => [url, new Date(T).toISOString()]));
      // The point observed for the other account before this one came to the URL is not this account's.
      expect(doc.history).toEqual([
        {
          url: owner.urls[0],
          points: [
            { t: new Date(T + HOUR).toISOString(), networks: { facebook: observed(20).Facebook, pinterest: { count: 21 }, reddit: observed(20).reddit } },
            { t: new Date(T + 2 * HOUR).toISOString(), networks: { facebook: observed(21).Facebook, pinterest: { count: 22 }, reddit: observed(21).reddit } },
          ],
        },
        { url: owner.urls[1], points: [{ t: new Date(T + HOUR).toISOString(), networks: expect.objectContaining({ pinterest: { count: 31 } }) }] },
      ]);
      expect(doc.bulk_jobs).toEqual([
        expect.objectContaining({
          id: owner.jobIds[1],
          networks: ["reddit"],
          urls_queued: 2,
          urls_completed: 1,
          completed_at: null,
          results: [{ url: "https://owner.example/bulk-v2", completed_at: new Date(T + 3).toISOString(), networks: { reddit: { score: 4, comments: 5, posts: 1 } }, stale: {} }],
        }),
        expect.objectContaining({
          id: owner.jobIds[0],
          networks: ["facebook", "pinterest"],
          results: [{ url: "https://owner.example/bulk-v1", completed_at: new Date(T + 1).toISOString(), networks: { pinterest: { count: 7 } }, stale: {} }],
        }),
      ]);
      for (const secret of owner.secrets) expect(text, secret).not.toContain(secret);
      for (const theirs of [other.email, other.id, ...other.urls, ...other.jobIds]) expect(text, theirs).not.toContain(theirs);
    });

    it("is named after the address and the day, and is null for an account that does not exist", async () => {
      const file = await exportFile(a, owner.id, T);
      expect(file.filename).toBe(`sharecount-export-${owner.email}-2026-03-01.json`);
      await file.body.cancel();
      expect(await openAccountExport(a, "no-such-account", T)).toBeNull();
    });

    it("writes one export of an account at a time, and a few at once in all", async () => {
      const gate = new ExportGate(2);
      const first = await openAccountExport(a, owner.id, T, gate);
      expect(await openAccountExport(a, owner.id, T, gate)).toBe("busy");
      const other = await openAccountExport(a, "no-such-account", T, gate);
      expect(other).toBeNull();
      // Read to its end, the first export lets the next one of the account start.
      await new Response((first as { body: ReadableStream }).body).text();
      const second = await openAccountExport(a, owner.id, T, gate);
      expect(second).not.toBe("busy");
      expect(await openAccountExport(a, "another-account", T, new ExportGate(0))).toBe("busy");
      await (second as { body: ReadableStream }).body.cancel();
      expect(await openAccountExport(a, owner.id, T, gate)).not.toBe("busy");
    });
  });

  describe.skipIf(skip)("deletion", () => {
    it("removes every row the account owns, keeps shared observations, and writes the final mail in its place", async () => {
      const pointsBefore = await count("observation", "url_id", String((await a.history.idOf(owner.urls[0]!))!));
      const deletion = new AccountDeletion({
        prisma: db.prisma,
        outbox: openOutbox(db.prisma, SECRET),
        clock: new QuotaClock("UTC", () => T + 11 * HOUR),
        bulk: a.bulk,
        linkOrigin: "https://sharecount.example",
        redis: null,
      });
      expect(await deletion.delete(owner.id)).toEqual({ email: owner.email });

      const tables = await tablesWithAccountId();
      // Every table that references accounts, today's included: a new one is checked here without a change to this test.
      expect(tables).toEqual(expect.arrayContaining(["bulk_job", "mail_message", "session", "tracked_url", "url_import"]));
      for (const table of tables) expect(await count(table, "account_id", owner.id), table).toBe(0);
      expect(await count("account", "id", owner.id)).toBe(0);
      for (const job of owner.jobIds) expect(await count("bulk_url", "job_id", job), job).toBe(0);
      expect(await count("verification_token", "identifier", owner.email)).toBe(0);
      expect(await a.accounts.byKeyHash(`hash-${owner.id}`)).toBeNull();

      // Shared: the URLs and what was observed of them stay.
      expect(await count("observation", "url_id", String((await a.history.idOf(owner.urls[0]!))!))).toBe(pointsBefore);
      const mail = await db.prisma.mailMessage.findMany({ where: { recipient: owner.email } });
      expect(mail).toEqual([expect.objectContaining({ kind: "account_deleted", accountId: null, status: "pending", dueAt: new Date(T + 11 * HOUR) })]);

      // The other account is untouched, and its export is whole.
      expect(await a.accounts.profile(other.id)).not.toBeNull();
      const theirs = accountExportSchema.parse(JSON.parse(await exportText(a, other.id)));
      expect(theirs.tracked_urls).toHaveLength(2);
      expect(theirs.bulk_jobs).toHaveLength(2);
      await expect(deletion.delete(owner.id)).rejects.toThrow(/No such account/);
    });
  });
});
