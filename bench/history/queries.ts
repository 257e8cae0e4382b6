/** What both databases answer, through the store: one URL's year of points, the tracked list's pages, leasing due URLs. */
import type { Store } from "../../lib/store/store.ts";
import type { TrackedPageQuery } from "../../lib/store/tracked.ts";
import { ACCOUNT_ID, DAY_MS, DAYS } from "./data.ts";
import { figure, latency, latencyFigure } from "./figures.ts";

const HISTORY_SAMPLES = 500;
const PAGE_SAMPLES = 200;
/** How many URLs the scheduler figure leases at once. */
export const DUE_URLS = 10_000;

export type Explain = (kind: "points" | "page", query: { urlId: number; page: TrackedPageQuery }) => Promise<void>;

const byChange: TrackedPageQuery = { sort: "change_7d", order: "desc", limit: 100 };

/** The history and tracked-list queries through the store; a missed target prints the statement's plan. */
export async function queryFigures(
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

/** Leases every due URL at once, a few times over (`reset` makes them due again): the slowest counts. */
export async function claimFigure(prefix: string, store: Store, due: number, now: number, reset: () => Promise<unknown>): Promise<void> {
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
