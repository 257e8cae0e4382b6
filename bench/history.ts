/**
 * `npm run bench:history`: count history and tracked URLs at the sizes the tracking feature is sold for,
 * measured through the store's own methods (openStore), on scratch databases dropped afterwards.
 * 1. PostgreSQL: 100,000 tracked URLs with a year of daily points (Facebook and Pinterest): one URL's
 *    365-day history, the tracked list's first page by 7-day change and by total and its second page, and
 *    bytes per stored point.
 * 2. SQLite (the embedded default): the same with 10,000 URLs.
 * 3. Scheduler: leasing 10,000 due URLs at once (claimDue) on both.
 * 4. Budget share: the real runtime with the sandbox, 1,000 URLs tracked, upstream calls against
 *    REFRESH_BUDGET_SHARE of each network's hourly budget.
 * Each figure is a line with its target; the run fails (exit 1) when one misses it. A missed query target
 * prints the statement's plan. BENCH_PG_URLS / BENCH_SQLITE_URLS shrink the data for a quick try.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { ensureDefaultPlans } from "../lib/accounts/plans.ts";
import { migrate } from "../lib/db/migrate.ts";
import { parsePostgresUrl } from "../lib/db/postgres-url.ts";
import { createPrisma, type PrismaClient } from "../lib/db/prisma.ts";
import { parseEnv } from "../lib/env.ts";
import { HOUR_MS, hourOf, OBSERVATION_COLUMNS } from "../lib/store/observation-rows.ts";
import { openStore } from "../lib/store/open.ts";
import type { Store } from "../lib/store/store.ts";
import { pageStatements } from "../lib/store/tracked-rows.ts";
import type { TrackedPageQuery } from "../lib/store/tracked.ts";
import type { SandboxStats } from "../service/sandbox/control.ts";
import { startRuntime } from "../service/wiring.ts";
import { postgresStoreDatabase } from "../test/support/stores.ts";
import { envInt, log, runMain, sleep, tempDir } from "./support.ts";

const PG_URLS = envInt("BENCH_PG_URLS", 100_000);
const SQLITE_URLS = envInt("BENCH_SQLITE_URLS", 10_000);
const DAYS = 365;
const DAY_MS = 24 * HOUR_MS;
const HISTORY_SAMPLES = 500;
const PAGE_SAMPLES = 200;
const WARMUP = 10;
const DUE_URLS = 10_000;
const RUNTIME_URLS = 1_000;
const ACCOUNT_ID = "bench-history";
/** The store's statement for one URL's points (lib/store/postgres/history.ts), for EXPLAIN when it is slow. */
const PG_POINTS_SQL = `SELECT url_id, observed_at, ${OBSERVATION_COLUMNS.join(", ")} FROM observation WHERE url_id = ANY($1::int[]) AND hour >= $2 AND hour <= $3 ORDER BY url_id, hour`;
const SQLITE_POINTS_SQL = `SELECT observed_at, ${OBSERVATION_COLUMNS.join(", ")} FROM observation WHERE url_id = ? AND hour >= ? AND hour <= ? ORDER BY hour`;

// ---- figures ----

interface Figure {
  name: string;
  value: number;
  unit: string;
  /** The figure must stay below (or at most) this; null: reported, not judged. */
  target: { max: number; inclusive: boolean } | null;
  pass: boolean | null;
  detail?: Record<string, number | string>;
}

const figures: Figure[] = [];

function figure(name: string, value: number, unit: string, target: Figure["target"], detail?: Figure["detail"], note = ""): Figure {
  const pass = target === null ? null : target.inclusive ? value <= target.max : value < target.max;
  const rounded = detail && Object.fromEntries(Object.entries(detail).map(([k, v]) => [k, typeof v === "number" ? round(v) : v]));
  const entry: Figure = { name, value: round(value), unit, target, pass, detail: rounded };
  figures.push(entry);
  const extra = rounded ? ` (${Object.entries(rounded).map(([k, v]) => `${k} ${v}`).join(", ")})` : "";
  const judged = target === null ? "" : `  target ${target.inclusive ? "≤" : "<"} ${target.max} ${unit}  ${pass ? "PASS" : "MISS"}`;
  console.log(`[figure] ${name}: ${round(value)} ${unit}${extra}${judged}${note ? `  — ${note}` : ""}`);
  return entry;
}

const round = (x: number) => (Math.abs(x) >= 100 ? Math.round(x) : Number(x.toPrecision(3)));

interface Latency {
  p50: number;
  p99: number;
  max: number;
  samples: number;
}

/** Times `once` sequentially (`warmup` untimed calls first: statements get prepared and planned). */
async function latency(samples: number, once: (i: number) => Promise<unknown>): Promise<Latency> {
  for (let i = 0; i < WARMUP; i++) await once(i);
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const start = performance.now();
    await once(i);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  // Nearest rank: the p99 of 200 samples is the second slowest.
  const rank = (p: number) => times[Math.min(times.length - 1, Math.ceil(p * times.length) - 1)]!;
  return { p50: rank(0.5), p99: rank(0.99), max: times.at(-1)!, samples };
}

function latencyFigure(name: string, l: Latency, targetMs: number): Figure {
  return figure(name, l.p99, "ms", { max: targetMs, inclusive: false }, { p50_ms: l.p50, max_ms: l.max, samples: l.samples });
}

const seconds = (startedAt: number) => (performance.now() - startedAt) / 1000;

// ---- the seeded data: one formula for both databases, so the summaries agree with the points ----

/** A deterministic number in [0, 1) for URL `id` (multiplicative hashing). */
const unitHash = (id: number, k: number, m: number) => ((id * k) % m) / m;

/** Heavy-tailed final counts (most URLs get little, a few get a lot) and how early in the year they came. */
function urlShape(id: number) {
  return {
    facebook: Math.floor(Math.exp(unitHash(id, 2654435761, 1000003) * 12)),
    pinterest: Math.floor(Math.exp(unitHash(id, 40503, 999983) * 9)),
    shape: 0.2 + 0.8 * unitHash(id, 69069, 1000033),
  };
}

/** The same in SQL, from `id`. */
const URL_SHAPE_SQL = `
  floor(exp(((id::bigint * 2654435761) % 1000003)::float8 / 1000003 * 12))::bigint AS facebook,
  floor(exp(((id::bigint * 40503) % 999983)::float8 / 999983 * 9))::bigint AS pinterest,
  0.2 + 0.8 * ((id::bigint * 69069) % 1000033)::float8 / 1000033 AS shape`;

/** A count reached by day `day` (0..364) of the year. */
const countOn = (final: number, shape: number, day: number) => Math.floor(final * Math.pow((day + 1) / DAYS, shape));

/** Facebook's breakdown of a total, in OBSERVATION_COLUMNS order (total, comment, reaction, share, plugin). */
function facebookColumns(total: number): number[] {
  const share = Math.floor(total / 2);
  const reaction = Math.floor((total * 35) / 100);
  return [total, total - share - reaction, reaction, share, Math.floor(total / 100)];
}

/** The stored `latest` JSON, as summaryColumns writes it. */
function latestJson(facebook: number, pinterest: number): string {
  const [total_count, comment_count, reaction_count, share_count, comment_plugin_count] = facebookColumns(facebook);
  return JSON.stringify({ Facebook: { total_count, comment_count, reaction_count, share_count, comment_plugin_count }, Pinterest: pinterest });
}

/** Where the year of points sits: the last one an hour ago, one a day before that. */
function timeline(now: number) {
  const lastHour = hourOf(now) - 1;
  const hourOfDay = (day: number) => lastHour - (DAYS - 1 - day) * 24;
  // Points are taken at some second of their hour, fixed per URL.
  const observedAt = (hour: number, id: number) => hour * HOUR_MS + (id % 3600) * 1000;
  return { hourOfDay, observedAt, addedAt: (id: number) => now - (DAYS + 1) * DAY_MS - (id % 1440) * 60_000 };
}

const urlOf = (id: number) => `https://www.news-${id % 97}.example/${2024 + (id % 2)}/${String((id % 12) + 1).padStart(2, "0")}/story-${id}-headline-words`;

// ---- PostgreSQL ----

/** Fills a migrated database with `urls` tracked URLs and a year of daily points each, set-based. */
async function seedPostgres(url: string, urls: number, now: number): Promise<void> {
  const { connectionString } = parsePostgresUrl(url);
  const clients = [new pg.Client({ connectionString }), new pg.Client({ connectionString })];
  const t = timeline(now);
  const started = performance.now();
  try {
    for (const client of clients) {
      await client.connect();
      // Foreign-key triggers off for the load (the rows are consistent by construction); bigger sorts for the index.
      await client.query("SET session_replication_role = replica; SET synchronous_commit = off; SET maintenance_work_mem = '1GB'");
    }
    const [main] = clients as [pg.Client, pg.Client];
    await main.query(`INSERT INTO counted_url (id, url) SELECT id, ${sqlUrlOf("id")} FROM generate_series(1, $1::int) AS id`, [urls]);
    await main.query("SELECT setval(pg_get_serial_sequence('counted_url', 'id'), $1)", [urls]);
    await main.query(`CREATE UNLOGGED TABLE bench_url AS SELECT id, ${URL_SHAPE_SQL} FROM generate_series(1, $1::int) AS id`, [urls]);
    // Loading without the primary key and building it once is far faster than 36 million index inserts.
    await main.query("ALTER TABLE observation DROP CONSTRAINT observation_pkey");

    // One statement per day, all URLs: the order the service writes them in (a URL's points spread over the heap).
    const insertDay = `
      INSERT INTO observation (url_id, hour, observed_at, ${OBSERVATION_COLUMNS.join(", ")})
      SELECT b.id, $1::int, $1::bigint * ${HOUR_MS} + (b.id % 3600) * 1000,
        v.fb, v.fb - v.fb / 2 - v.fb * 35 / 100, v.fb * 35 / 100, v.fb / 2, v.fb / 100, v.pin
      FROM bench_url b, LATERAL (
        SELECT floor(b.facebook * power($2::float8, b.shape))::bigint AS fb, floor(b.pinterest * power($2::float8, b.shape))::bigint AS pin) v`;
    let nextDay = 0;
    let done = 0;
    let lastReport = performance.now();
    await Promise.all(
      clients.map(async (client) => {
        for (let day: number; (day = nextDay++) < DAYS; ) {
          await client.query(insertDay, [t.hourOfDay(day), (day + 1) / DAYS]);
          done++;
          if (performance.now() - lastReport > 10_000 || done === DAYS) {
            lastReport = performance.now();
            log(`  seeded ${done}/${DAYS} days (${((done * urls) / 1e6).toFixed(1)} M points) in ${seconds(started).toFixed(0)} s`);
          }
        }
      }),
    );
    let step = performance.now();
    await main.query("ALTER TABLE observation ADD CONSTRAINT observation_pkey PRIMARY KEY (url_id, hour)");
    log(`  primary key built in ${seconds(step).toFixed(1)} s`);

    // Summaries as a refresh stores them: latest = the last point, changes against 7 and 30 days before it.
    const at = (day: string) => `floor(b.facebook * power((${day} + 1)::float8 / ${DAYS}, b.shape))::bigint`;
    const pinAt = (day: string) => `floor(b.pinterest * power((${day} + 1)::float8 / ${DAYS}, b.shape))::bigint`;
    step = performance.now();
    await main.query(
      `INSERT INTO tracked_url (account_id, url_id, added_at, last_refreshed_at, latest, total, change_7d, change_30d)
       SELECT $1, id, $2::bigint - (id % 1440) * 60000, last_at,
         '{"Facebook":{"total_count":' || fb || ',"comment_count":' || (fb - fb / 2 - fb * 35 / 100) || ',"reaction_count":' || (fb * 35 / 100)
           || ',"share_count":' || (fb / 2) || ',"comment_plugin_count":' || (fb / 100) || '},"Pinterest":' || pin || '}',
         fb + pin, fb + pin - fb7 - pin7, fb + pin - fb30 - pin30
       FROM (
         SELECT b.id, $3::bigint * ${HOUR_MS} + (b.id % 3600) * 1000 AS last_at,
           ${at(`${DAYS - 1}`)} AS fb, ${pinAt(`${DAYS - 1}`)} AS pin,
           ${at(`${DAYS - 8}`)} AS fb7, ${pinAt(`${DAYS - 8}`)} AS pin7,
           ${at(`${DAYS - 31}`)} AS fb30, ${pinAt(`${DAYS - 31}`)} AS pin30
         FROM bench_url b) s`,
      [ACCOUNT_ID, now - (DAYS + 1) * DAY_MS, t.hourOfDay(DAYS - 1)],
    );
    // Old URLs are refreshed weekly: each is due again within the coming week.
    await main.query(
      `INSERT INTO refresh_schedule (url_id, first_tracked_at, next_refresh_at, last_refreshed_at)
       SELECT url_id, added_at, $1::bigint + (url_id % 168) * ${HOUR_MS}, last_refreshed_at FROM tracked_url`,
      [now],
    );
    await main.query("DROP TABLE bench_url");
    log(`  tracked_url and refresh_schedule filled in ${seconds(step).toFixed(1)} s`);
    step = performance.now();
    await main.query("VACUUM ANALYZE");
    log(`  VACUUM ANALYZE in ${seconds(step).toFixed(1)} s`);
  } finally {
    for (const client of clients) await client.end().catch(() => {});
  }
}

/** urlOf in SQL. */
const sqlUrlOf = (id: string) =>
  `'https://www.news-' || (${id} % 97) || '.example/' || (2024 + ${id} % 2) || '/' || lpad((${id} % 12 + 1)::text, 2, '0') || '/story-' || ${id} || '-headline-words'`;

/** Makes every `urls / DUE_URLS`-th URL due now (the most overdue an hour ago), nothing leased. */
async function makeDuePostgres(client: pg.Client, urls: number, now: number): Promise<number> {
  const every = Math.max(1, Math.floor(urls / DUE_URLS));
  await client.query("UPDATE refresh_schedule SET lease_until = NULL, lease_token = NULL WHERE lease_until IS NOT NULL");
  const { rowCount } = await client.query(
    `UPDATE refresh_schedule SET next_refresh_at = $1::bigint - (url_id % 3600) * 1000 - 1000 WHERE url_id % $2 = 0 AND url_id / $2 <= $3`,
    [now, every, DUE_URLS],
  );
  await client.query("VACUUM ANALYZE refresh_schedule");
  return rowCount ?? 0;
}

async function explainPostgres(client: pg.Client, text: string, values: unknown[]): Promise<void> {
  const { rows } = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, values);
  for (const row of rows) console.log(`    ${row["QUERY PLAN"]}`);
}

async function benchPostgres(): Promise<void> {
  log(`PostgreSQL: ${PG_URLS} tracked URLs × ${DAYS} daily points`);
  const db = await postgresStoreDatabase();
  let store: Store | null = null;
  const admin = new pg.Client({ connectionString: parsePostgresUrl(db.url).connectionString });
  try {
    await ensureDefaultPlans(db.prisma);
    await createAccount(db.prisma, "dedicated");
    const now = Date.now();
    const seedStarted = performance.now();
    await seedPostgres(db.url, PG_URLS, now);
    figure("pg.seed", seconds(seedStarted), "s", null, { points: PG_URLS * DAYS });

    store = openStore(db.url);
    await admin.connect();
    await queryFigures("pg", store, PG_URLS, now, { points: 20, page: 100 }, async (kind, query) => {
      if (kind === "points") return explainPostgres(admin, PG_POINTS_SQL, [[query.urlId], hourOf(now - DAYS * DAY_MS), hourOf(now)]);
      const [first] = pageStatements(ACCOUNT_ID, query.page, (i) => `$${i}`, "ILIKE");
      return explainPostgres(admin, first!.text, first!.values);
    });

    const { rows } = await admin.query<{ total: string; heap: string; indexes: string; points: string }>(
      `SELECT pg_total_relation_size('observation') AS total, pg_table_size('observation') AS heap,
         pg_indexes_size('observation') AS indexes, (SELECT count(*) FROM observation) AS points`,
    );
    const size = rows[0]!;
    const points = Number(size.points);
    const note = "primary key built after the load (densest it gets; one grown by the live service's inserts is larger)";
    figure("pg.bytes_per_point", Number(size.total) / points, "B", null, { points, total_mb: Number(size.total) / 2 ** 20 }, note);
    figure("pg.bytes_per_point.table", Number(size.heap) / points, "B", null);
    figure("pg.bytes_per_point.indexes", Number(size.indexes) / points, "B", null);

    const due = await makeDuePostgres(admin, PG_URLS, now);
    await claimFigure("pg", store, due, now, () => makeDuePostgres(admin, PG_URLS, now));
  } finally {
    await admin.end().catch(() => {});
    await store?.close();
    await db.drop();
  }
}

// ---- what both databases answer ----

type Explain = (kind: "points" | "page", query: { urlId: number; page: TrackedPageQuery }) => Promise<void>;

/** The history and tracked-list queries through the store; a missed target prints the statement's plan. */
async function queryFigures(
  prefix: string,
  store: Store,
  urls: number,
  now: number,
  targetsMs: { points: number; page: number },
  explain: Explain,
): Promise<void> {
  const from = now - DAYS * DAY_MS;
  const randomUrl = () => 1 + Math.floor(Math.random() * urls);
  const sample = await store.history.points(randomUrl(), from, now);
  if (sample.length !== DAYS) throw new Error(`a URL's history has ${sample.length} points over ${DAYS} days, ${DAYS} expected`);

  const points = latencyFigure(`${prefix}.history.points_365d`, await latency(HISTORY_SAMPLES, () => store.history.points(randomUrl(), from, now)), targetsMs.points);
  if (!points.pass) await explain("points", { urlId: randomUrl(), page: byChange });

  const pages: [string, TrackedPageQuery][] = [
    ["tracked.page.change_7d_desc", byChange],
    ["tracked.page.total_desc", { sort: "total", order: "desc", limit: 100 }],
  ];
  const first = await store.tracked.page(ACCOUNT_ID, byChange);
  if (first.rows.length !== 100 || !first.next) throw new Error(`the first page has ${first.rows.length} rows and no next page`);
  pages.push(["tracked.page.change_7d_desc.second", { ...byChange, after: first.next }]);
  for (const [name, query] of pages) {
    const result = latencyFigure(`${prefix}.${name}`, await latency(PAGE_SAMPLES, () => store.tracked.page(ACCOUNT_ID, query)), targetsMs.page);
    if (!result.pass) await explain("page", { urlId: 0, page: query });
  }
}

const byChange: TrackedPageQuery = { sort: "change_7d", order: "desc", limit: 100 };

/** Leases every due URL at once, a few times over (`reset` makes them due again): the slowest counts. */
async function claimFigure(prefix: string, store: Store, due: number, now: number, reset: () => Promise<unknown>): Promise<void> {
  const runs: number[] = [];
  for (let run = 0; run < 3; run++) {
    if (run > 0) await reset();
    const start = performance.now();
    const claimed = await store.tracked.claimDue(now, DUE_URLS, 300_000, "bench");
    runs.push(performance.now() - start);
    if (claimed.length !== due) throw new Error(`claimDue leased ${claimed.length} URLs, ${due} were due`);
  }
  figure(`${prefix}.tracked.claim_due_10k`, Math.max(...runs), "ms", { max: 1000, inclusive: false }, {
    due,
    runs_ms: runs.map((r) => r.toFixed(0)).join("/"),
  });
}

async function createAccount(prisma: PrismaClient, plan: string, id = ACCOUNT_ID): Promise<void> {
  await prisma.account.create({ data: { id, email: `${id}@example.com`, planName: plan, apiKeyHash: `hash-${id}` } });
}

// ---- SQLite ----

/** Fills the file with `urls` tracked URLs and a year of daily points, in one transaction per table. */
function seedSqlite(file: string, urls: number, now: number): void {
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
    const record = db.prepare<unknown[]>(
      `INSERT INTO observation (url_id, hour, observed_at, ${OBSERVATION_COLUMNS.join(", ")}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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

function sqliteSize(file: string): { perPoint: number; method: string; detail: Record<string, number | string> } {
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

async function benchSqlite(template: string, dir: string): Promise<void> {
  log(`SQLite: ${SQLITE_URLS} tracked URLs × ${DAYS} daily points`);
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
  seedSqlite(file, SQLITE_URLS, now);
  figure("sqlite.seed", seconds(seedStarted), "s", null, { points: SQLITE_URLS * DAYS });

  const store = openStore(url);
  const explainDb = new Database(file, { readonly: true });
  try {
    await queryFigures("sqlite", store, SQLITE_URLS, now, { points: 50, page: 50 }, async (kind, query) => {
      const [text, values] =
        kind === "points"
          ? [SQLITE_POINTS_SQL, [query.urlId, hourOf(now - DAYS * DAY_MS), hourOf(now)]]
          : ((s) => [s.text, s.values])(pageStatements(ACCOUNT_ID, query.page, () => "?", "LIKE")[0]!);
      for (const row of explainDb.prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${text}`).all(...values)) console.log(`    ${row.detail}`);
    });
    const size = sqliteSize(file);
    figure("sqlite.bytes_per_point", size.perPoint, "B", null, { ...size.detail, method: size.method }, "no ANALYZE or VACUUM: as the service leaves the file");
    const reset = () => {
      const db = new Database(file);
      db.prepare("UPDATE refresh_schedule SET lease_until = NULL, lease_token = NULL").run();
      db.close();
      return Promise.resolve();
    };
    await claimFigure("sqlite", store, SQLITE_URLS, now, reset);
  } finally {
    explainDb.close();
    await store.close();
  }
}

// ---- the refresh budget share, in the running service ----

async function benchBudget(template: string, dir: string): Promise<void> {
  const file = path.join(dir, "runtime.db");
  fs.copyFileSync(template, file);
  const url = `file:${file}`;
  const prisma = createPrisma(url);
  try {
    await createAccount(prisma, "dedicated");
  } finally {
    await prisma.$disconnect();
  }
  const perHour = 200;
  const share = 0.5;
  // REFRESH_POLL_MS has a floor of 100 in lib/env.ts: 50 is refused.
  const env = parseEnv({
    DATABASE_URL: url,
    SHARECOUNT_NETWORKS: "sandbox",
    SANDBOX_LATENCY_MS: "0",
    QUOTA_TIMEZONE: "UTC",
    FACEBOOK_APP_CALLS_PER_HOUR: String(perHour),
    PINTEREST_APP_CALLS_PER_HOUR: String(perHour),
    REFRESH_BUDGET_SHARE: String(share),
    REFRESH_POLL_MS: "100",
  });
  log(`budget share: the runtime with the sandbox, ${RUNTIME_URLS} URLs tracked, ${perHour} calls/hour per network, share ${share}`);
  const runtime = await startRuntime(env, { now: Date.now });
  try {
    const store = runtime.store;
    const urls = Array.from({ length: RUNTIME_URLS }, (_, i) => `https://budget.example/post-${i}`);
    const ids = await store.history.idsOf(urls);
    const added = await store.tracked.add(ACCOUNT_ID, [...ids.values()], 500_000, Date.now());
    if (!added.ok || added.added !== RUNTIME_URLS) throw new Error(`tracking ${RUNTIME_URLS} URLs answered ${JSON.stringify(added)}`);
    runtime.scheduler?.notify();

    const stats = async () => (await (await fetch(`${runtime.sandbox!.origin}/__sandbox/stats`)).json()) as SandboxStats;
    const started = performance.now();
    let last = "";
    let stillSince = performance.now();
    // Settled: no upstream call and no change in the backlog for 2 s (or 30 s passed).
    for (;;) {
      await sleep(200);
      const s = await stats();
      const backlog = await store.tracked.backlog(null, Date.now());
      const state = `${s.facebook.calls}/${s.pinterest.calls}/${backlog.due}`;
      if (state !== last) [last, stillSince] = [state, performance.now()];
      if (performance.now() - stillSince > 2_000 || seconds(started) > 30) break;
    }
    const s = await stats();
    const backlog = await store.tracked.backlog(null, Date.now());
    const allowed = Math.floor(perHour * share);
    const settled = `settled after ${seconds(started).toFixed(1)} s`;
    figure("budget.facebook_calls", s.facebook.calls, "calls", { max: allowed, inclusive: true }, { app_budget_per_hour: perHour, share }, settled);
    figure("budget.pinterest_calls", s.pinterest.calls, "calls", { max: allowed, inclusive: true }, { app_budget_per_hour: perHour, share });
    figure("budget.still_due", backlog.due, "URLs", null, { tracked: RUNTIME_URLS, refreshed: RUNTIME_URLS - backlog.due });
  } finally {
    await runtime.close();
  }
}

// ---- run ----

async function main(): Promise<number> {
  const started = performance.now();
  const dir = tempDir("bench-history");
  try {
    await benchPostgres();
    // One migrated SQLite file (the Prisma CLI takes seconds), copied for each use.
    const template = path.join(dir, "template.db");
    log("migrating a SQLite template");
    await migrate(`file:${template}`);
    await benchSqlite(template, dir);
    await benchBudget(template, dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const totalSeconds = seconds(started);
  const missed = figures.filter((f) => f.pass === false);
  console.log("");
  console.log(
    JSON.stringify({
      bench: "history",
      total_s: round(totalSeconds),
      pg_urls: PG_URLS,
      sqlite_urls: SQLITE_URLS,
      figures: Object.fromEntries(figures.map(({ name, ...rest }) => [name, rest])),
      missed: missed.map((f) => f.name),
      passed: missed.length === 0,
    }),
  );
  for (const f of missed) console.error(`[bench] MISSED: ${f.name} ${f.value} ${f.unit} (target ${f.target!.inclusive ? "≤" : "<"} ${f.target!.max})`);
  return missed.length === 0 ? 0 : 1;
}

await runMain(main);
