/** PostgreSQL: a scratch database seeded set-based with a year of daily points per URL, then the figures through the store. */
import pg from "pg";
import { ensureDefaultPlans } from "../../lib/accounts/plans.ts";
import { parsePostgresUrl } from "../../lib/db/postgres-url.ts";
import { columnsOfNetwork, HOUR_MS, hourOf, OBSERVATION_COLUMNS } from "../../lib/store/observation-rows.ts";
import { openStore } from "../../lib/store/open.ts";
import type { Store } from "../../lib/store/store.ts";
import { pageStatements } from "../../lib/store/tracked-rows.ts";
import { postgresStoreDatabase } from "../../test/support/stores.ts";
import { log } from "../support.ts";
import { ACCOUNT_ID, createAccount, DAY_MS, DAYS, sqlUrlOf, timeline, URL_SHAPE_SQL } from "./data.ts";
import { figure, seconds } from "./figures.ts";
import { claimFigure, DUE_URLS, queryFigures } from "./queries.ts";

/** The store's statement for one URL's points (lib/store/postgres/history.ts), for EXPLAIN when it is slow. */
const POINTS_SQL = `SELECT url_id, observed_at, ${OBSERVATION_COLUMNS.join(", ")} FROM observation WHERE url_id = ANY($1::int[]) AND hour >= $2 AND hour <= $3 ORDER BY url_id, hour`;

/** Fills a migrated database with `urls` tracked URLs and a year of daily points each, set-based. */
async function seed(url: string, urls: number, now: number): Promise<void> {
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
      INSERT INTO observation (url_id, hour, observed_at, ${[...columnsOfNetwork("Facebook"), ...columnsOfNetwork("Pinterest")].join(", ")})
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

/** Makes every `urls / DUE_URLS`-th URL due now (the most overdue an hour ago), nothing leased. */
async function makeDue(client: pg.Client, urls: number, now: number): Promise<number> {
  const every = Math.max(1, Math.floor(urls / DUE_URLS));
  await client.query("UPDATE refresh_schedule SET lease_until = NULL, lease_token = NULL WHERE lease_until IS NOT NULL");
  const { rowCount } = await client.query(
    `UPDATE refresh_schedule SET next_refresh_at = $1::bigint - (url_id % 3600) * 1000 - 1000 WHERE url_id % $2 = 0 AND url_id / $2 <= $3`,
    [now, every, DUE_URLS],
  );
  await client.query("VACUUM ANALYZE refresh_schedule");
  return rowCount ?? 0;
}

async function explain(client: pg.Client, text: string, values: unknown[]): Promise<void> {
  const { rows } = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, values);
  for (const row of rows) console.log(`    ${row["QUERY PLAN"]}`);
}

/** Seeds `urls` tracked URLs on a scratch database, prints the pg.* figures and drops the database. */
export async function benchPostgres(urls: number): Promise<void> {
  log(`PostgreSQL: ${urls} tracked URLs × ${DAYS} daily points`);
  const db = await postgresStoreDatabase();
  let store: Store | null = null;
  const admin = new pg.Client({ connectionString: parsePostgresUrl(db.url).connectionString });
  try {
    await ensureDefaultPlans(db.prisma);
    await createAccount(db.prisma, "dedicated");
    const now = Date.now();
    const seedStarted = performance.now();
    await seed(db.url, urls, now);
    figure("pg.seed", seconds(seedStarted), "s", null, { points: urls * DAYS });

    store = openStore(db.url);
    await admin.connect();
    await queryFigures("pg", store, urls, now, { points: 20, page: 100 }, async (kind, query) => {
      if (kind === "points") return explain(admin, POINTS_SQL, [[query.urlId], hourOf(now - DAYS * DAY_MS), hourOf(now)]);
      const [first] = pageStatements(ACCOUNT_ID, query.page, (i) => `$${i}`, "ILIKE");
      return explain(admin, first!.text, first!.values);
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

    const due = await makeDue(admin, urls, now);
    await claimFigure("pg", store, due, now, () => makeDue(admin, urls, now));
  } finally {
    await admin.end().catch(() => {});
    await store?.close();
    await db.drop();
  }
}
