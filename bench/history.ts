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
 * The parts live in bench/history/.
 */
import fs from "node:fs";
import path from "node:path";
import { migrate } from "../lib/db/migrate.ts";
import { benchBudget } from "./history/budget.ts";
import { printSummary, round, seconds } from "./history/figures.ts";
import { benchPostgres } from "./history/postgres.ts";
import { benchSqlite } from "./history/sqlite.ts";
import { envInt, log, runMain, tempDir } from "./support.ts";

const PG_URLS = envInt("BENCH_PG_URLS", 100_000);
const SQLITE_URLS = envInt("BENCH_SQLITE_URLS", 10_000);

async function main(): Promise<number> {
  const started = performance.now();
  const dir = tempDir("bench-history");
  try {
    await benchPostgres(PG_URLS);
    // One migrated SQLite file (the Prisma CLI takes seconds), copied for each use.
    const template = path.join(dir, "template.db");
    log("migrating a SQLite template");
    await migrate(`file:${template}`);
    await benchSqlite(template, dir, SQLITE_URLS);
    await benchBudget(template, dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const passed = printSummary({ bench: "history", total_s: round(seconds(started)), pg_urls: PG_URLS, sqlite_urls: SQLITE_URLS });
  return passed ? 0 : 1;
}

await runMain(main);
