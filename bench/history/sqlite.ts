/** SQLite (the embedded default): a copy of the migrated template seeded row by row, then the figures through the store. */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { createPrisma } from "../../lib/db/prisma.ts";
import { columnsOfNetwork, hourOf, OBSERVATION_COLUMNS } from "../../lib/store/observation-rows.ts";
import { openStore } from "../../lib/store/open.ts";
import { pageStatements } from "../../lib/store/tracked-rows.ts";
import { log } from "../support.ts";
import { ACCOUNT_ID, countOn, createAccount, DAY_MS, DAYS, facebookColumns, latestJson, timeline, urlOf, urlShape } from "./data.ts";
import { figure, seconds } from "./figures.ts";
import { claimFigure, queryFigures } from "./queries.ts";

/** The store's statement for one URL's points (lib/store/sqlite/history.ts), for EXPLAIN QUERY PLAN when it is slow. */
const POINTS_SQL = `SELECT observed_at, ${OBSERVATION_COLUMNS.join(", ")} FROM observation WHERE url_id = ? AND hour >= ? AND hour <= ? ORDER BY hour`;

/** Fills the file with `urls` tracked URLs and a year of daily points, in one transaction per table. */
function seed(file: string, urls: number, now: number): void {
  const db = new Database(file);
  const t = timeline(now);
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = OFF");
    db.pragma("cache_size = -262144");
    db.transaction(() => {
      const addUrl = db.prepare<[number, string]>("INSERT INTO counted_url (id, url) VALUES (?, ?)");
      for (let id = 1; id <= urls; id++) addUrl.run(id, urlOf(id));
    })();
    const shapes = Array.from({ length: urls + 1 }, (_, id) => urlShape(id));
    // Day by day, all URLs: the order the service writes them in.
    const seeded = [...columnsOfNetwork("Facebook"), ...columnsOfNetwork("Pinterest")];
    const record = db.prepare<unknown[]>(
      `INSERT INTO observation (url_id, hour, observed_at, ${seeded.join(", ")}) VALUES (?, ?, ?, ${seeded.map(() => "?").join(", ")})`,
    );
    db.transaction(() => {
      for (let day = 0; day < DAYS; day++) {
        const hour = t.hourOfDay(day);
        for (let id = 1; id <= urls; id++) {
          const s = shapes[id]!;
          record.run(id, hour, t.observedAt(hour, id), ...facebookColumns(countOn(s.facebook, s.shape, day)), countOn(s.pinterest, s.shape, day));
        }
      }
    })();
    const track = db.prepare<unknown[]>(
      `INSERT INTO tracked_url (account_id, url_id, added_at, last_refreshed_at, latest, total, change_7d, change_30d) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    // Everything due now (the most overdue an hour ago), for the scheduler figure.
    const schedule = db.prepare<[number, number, number, number]>(
      "INSERT INTO refresh_schedule (url_id, first_tracked_at, next_refresh_at, last_refreshed_at) VALUES (?, ?, ?, ?)",
    );
    db.transaction(() => {
      const lastHour = t.hourOfDay(DAYS - 1);
      for (let id = 1; id <= urls; id++) {
        const s = shapes[id]!;
        const total = (day: number) => countOn(s.facebook, s.shape, day) + countOn(s.pinterest, s.shape, day);
        const lastAt = t.observedAt(lastHour, id);
        const latest = latestJson(countOn(s.facebook, s.shape, DAYS - 1), countOn(s.pinterest, s.shape, DAYS - 1));
        track.run(ACCOUNT_ID, id, t.addedAt(id), lastAt, latest, total(DAYS - 1), total(DAYS - 1) - total(DAYS - 8), total(DAYS - 1) - total(DAYS - 31));
        schedule.run(id, t.addedAt(id), now - (id % 3600) * 1000 - 1000, lastAt);
      }
    })();
    db.pragma("wal_checkpoint(TRUNCATE)");
  } finally {
    db.close();
  }
}

function bytesPerPoint(file: string): { perPoint: number; method: string; detail: Record<string, number | string> } {
  const db = new Database(file, { readonly: true });
  try {
    const points = db.prepare<[], number>("SELECT COUNT(*) FROM observation").pluck().get()!;
    try {
      // WITHOUT ROWID: the primary key's b-tree is the table, so this is table and index in one.
      const row = db.prepare<[], { bytes: number; unused: number }>("SELECT SUM(pgsize) AS bytes, SUM(unused) AS unused FROM dbstat WHERE name = 'observation'").get()!;
      return {
        perPoint: row.bytes / points,
        method: "dbstat",
        detail: { points, mb: row.bytes / 2 ** 20, unused_share: row.unused / row.bytes },
      };
    } catch {
      db.close();
      const rw = new Database(file);
      rw.exec("VACUUM");
      rw.close();
      return { perPoint: fs.statSync(file).size / points, method: "file size after VACUUM (no dbstat)", detail: { points } };
    }
  } finally {
    if (db.open) db.close();
  }
}

/** Seeds `urls` tracked URLs in a copy of `template` inside `dir` and prints the sqlite.* figures. */
export async function benchSqlite(template: string, dir: string, urls: number): Promise<void> {
  log(`SQLite: ${urls} tracked URLs × ${DAYS} daily points`);
  const file = path.join(dir, "history.db");
  fs.copyFileSync(template, file);
  const url = `file:${file}`;
  const prisma = createPrisma(url);
  try {
    await createAccount(prisma, "dedicated");
  } finally {
    await prisma.$disconnect();
  }
  const now = Date.now();
  const seedStarted = performance.now();
  seed(file, urls, now);
  figure("sqlite.seed", seconds(seedStarted), "s", null, { points: urls * DAYS });

  const store = openStore(url);
  const explainDb = new Database(file, { readonly: true });
  try {
    await queryFigures("sqlite", store, urls, now, { points: 50, page: 50 }, async (kind, query) => {
      const [text, values] =
        kind === "points"
          ? [POINTS_SQL, [query.urlId, hourOf(now - DAYS * DAY_MS), hourOf(now)]]
          : ((s) => [s.text, s.values])(pageStatements(ACCOUNT_ID, query.page, () => "?", "LIKE")[0]!);
      for (const row of explainDb.prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${text}`).all(...values)) console.log(`    ${row.detail}`);
    });
    const size = bytesPerPoint(file);
    figure("sqlite.bytes_per_point", size.perPoint, "B", null, { ...size.detail, method: size.method }, "no ANALYZE or VACUUM: as the service leaves the file");
    const reset = () => {
      const db = new Database(file);
      db.prepare("UPDATE refresh_schedule SET lease_until = NULL, lease_token = NULL").run();
      db.close();
      return Promise.resolve();
    };
    await claimFigure("sqlite", store, urls, now, reset);
  } finally {
    explainDb.close();
    await store.close();
  }
}
