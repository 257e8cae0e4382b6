import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { beforeAll, describe, expect, it } from "vitest";
import { openAccountExport } from "../../lib/accounts/account-export.ts";
import { isPostgresUrl } from "../../lib/db/postgres-url.ts";
import type { Store } from "../../lib/store/store.ts";
import { accountExportSchema } from "../../lib/v2/export-schemas.ts";
import { postgresSkipReason, postgresStoreDatabase, sqliteStoreDatabase, twoStores, type StoreDatabase } from "../support/stores.ts";

/**
 * The export of a business account with 50,000 tracked URLs, each with two points, streams in bounded memory
 * on both stores: the live heap (measured after a full GC every 64 chunks of 64 KB) never grows by more than
 * 16 MB while the document is read, which is under half of the 36 MB document. An export that built the
 * document, or held its rows, could not stay under it; one that streams holds a few pages (500 tracked URLs,
 * 2,000 points) and a chunk.
 */
const skipPostgres = (await postgresSkipReason("test/store/export-memory.test.ts")) !== undefined;
const drivers = [
  { name: "SQLite", database: sqliteStoreDatabase, skip: false },
  { name: "PostgreSQL", database: postgresStoreDatabase, skip: skipPostgres },
];

const URLS = 50_000;
const MAX_LIVE_GROWTH = 16 * 1024 * 1024;
const GC_EVERY_CHUNKS = 64;
const T = Date.UTC(2026, 2, 1);
const HOUR = 3_600_000;

v8.setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** Seeds the account's URLs, their tracking and two points each in one transaction of set-based SQL (seconds, not minutes). */
async function seed(db: StoreDatabase, accountId: string): Promise<void> {
  const pg = isPostgresUrl(db.url);
  const series = pg
    ? `SELECT 'https://memory.example/page-' || i AS url FROM generate_series(1, ${URLS}) AS i`
    : `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${URLS}) SELECT 'https://memory.example/page-' || i AS url FROM n`;
  const account = pg ? "$1" : "?";
  const latest = JSON.stringify({ Pinterest: 40, Facebook: { total_count: 12, comment_count: 2, reaction_count: 6, share_count: 4, comment_plugin_count: 0 } });
  const fb = "12, 2, 6, 4, 0";
  await db.prisma.$transaction([
    db.prisma.$executeRawUnsafe(`INSERT INTO counted_url (url) ${series}`),
    db.prisma.$executeRawUnsafe(
      `INSERT INTO tracked_url (account_id, url_id, added_at, latest, total) SELECT ${account}, id, ${T}, '${latest}', 52 FROM counted_url WHERE url LIKE 'https://memory.example/%'`,
      accountId,
    ),
    db.prisma.$executeRawUnsafe(`
      INSERT INTO observation (url_id, hour, observed_at, first_observed_at, facebook_total, facebook_comment, facebook_reaction, facebook_share, facebook_comment_plugin, pinterest)
      SELECT c.id, ${T / HOUR} + k.k, ${T} + k.k * ${HOUR}, ${T} + k.k * ${HOUR}, ${fb}, 40 + k.k
      FROM counted_url c CROSS JOIN (SELECT 1 AS k UNION ALL SELECT 2) k WHERE c.url LIKE 'https://memory.example/%'`),
  ]);
}

describe.each(drivers)("the $name store's export of 50,000 tracked URLs", ({ database, skip }) => {
  const stores = twoStores(database, [{ name: "large", dailyQuota: 100_000, bulkBatchLimit: 1000, customTtlAllowed: false, trackedUrlLimit: 50_000 }], skip);
  let store: Store;
  let accountId: string;
  beforeAll(async () => {
    if (skip) return;
    store = stores.a;
    accountId = await stores.account();
    await seed(stores.db, accountId);
  }, 60_000);

  it.skipIf(skip)("streams in bounded memory, and the file parses with every URL and point", async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sharecount-export-")), "export.json");
    const out = fs.openSync(file, "w");
    try {
      gc();
      const before = process.memoryUsage().heapUsed;
      let peakLive = before;
      let bytes = 0;
      let chunks = 0;
      const started = performance.now();
      const file = await openAccountExport(store, accountId, T + 10 * HOUR);
      if (file === null || file === "busy") throw new Error(`no export: ${file}`);
      const reader = file.body.getReader();
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        fs.writeSync(out, read.value);
        bytes += read.value.byteLength;
        if (++chunks % GC_EVERY_CHUNKS === 0) {
          gc();
          peakLive = Math.max(peakLive, process.memoryUsage().heapUsed);
        }
      }
      const seconds = (performance.now() - started) / 1000;
      const growth = peakLive - before;
      console.log(`export of ${URLS} tracked URLs: ${(bytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(1)} s; live heap growth at most ${(growth / 1e6).toFixed(1)} MB`);
      expect(bytes).toBeGreaterThan(2 * MAX_LIVE_GROWTH);
      expect(growth).toBeLessThan(MAX_LIVE_GROWTH);
    } finally {
      fs.closeSync(out);
    }
    const doc = accountExportSchema.parse(JSON.parse(fs.readFileSync(file, "utf8")));
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
    expect(doc.tracked_urls).toHaveLength(URLS);
    expect(new Set(doc.tracked_urls.map((t) => t.url)).size).toBe(URLS);
    expect(doc.history).toHaveLength(URLS);
    expect(doc.history.every((h) => h.points.length === 2)).toBe(true);
    expect(doc.tracked_urls[0]).toMatchObject({ total: 52, networks: { pinterest: { count: 40 }, facebook: { total_count: 12 } } });
  });
});
