import type { ObservedValues } from "./history/observed.ts";
import type { Store } from "./store/store.ts";
import { parseCountUrl } from "./urls/count-url.ts";

/**
 * The demo account's tracked URLs: about 30 pages of three sites, added over the past six weeks, each with a
 * daily history that grows to what the networks report now, so the URL list, its sparklines and changes, and
 * each URL's charts are filled on the first start.
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;

const PAGES: Record<string, string[]> = {
  "https://example.com": [
    "/blog/launching-our-share-count-api",
    "/blog/why-counts-drop-to-zero",
    "/blog/caching-social-counts",
    "/blog/ten-years-of-social-buttons",
    "/guides/tracking-a-sitemap",
    "/guides/reading-count-history",
    "/guides/bulk-jobs-in-five-minutes",
    "/docs/quota-and-plans",
    "/docs/domain-whitelist",
    "/changelog/2026-11",
  ],
  "https://www.example.org": [
    "/news/city-council-votes-on-bike-lanes",
    "/news/library-extends-opening-hours",
    "/news/marathon-route-announced",
    "/features/the-last-lighthouse-keeper",
    "/features/inside-the-night-market",
    "/opinion/why-local-news-matters",
    "/sport/cup-final-report",
    "/science/comet-visible-this-week",
    "/culture/festival-lineup-revealed",
    "/weather/first-snow-of-the-season",
  ],
  "https://example.net": [
    "/recipes/sourdough-for-beginners",
    "/recipes/one-pot-lentil-soup",
    "/recipes/crispy-roast-potatoes",
    "/recipes/five-minute-pancakes",
    "/travel/a-weekend-in-lisbon",
    "/travel/night-trains-of-europe",
    "/travel/packing-light",
    "/diy/fixing-a-dripping-tap",
    "/diy/building-a-bookshelf",
    "/garden/growing-tomatoes-on-a-balcony",
  ],
};

export const DEMO_TRACKED_URLS: readonly string[] = Object.entries(PAGES).flatMap(([site, paths]) => paths.map((path) => `${site}${path}`));

/** The i-th URL's age in days: 42 down to 3, each different (13 and 40 are coprime); the first is the oldest. */
const ageOf = (i: number) => 42 - ((i * 13) % 40);

/** Counts grow fast at first and level off; `speed` sets how fast (near 0: almost a straight line). */
const growth = (fraction: number, speed: number) => (1 - Math.exp(-speed * fraction)) / (1 - Math.exp(-speed));

/** `values` scaled by `share` (0 to 1), rounded up: a count that is there now was there, if smaller, before. */
function scaled(values: ObservedValues, share: number): ObservedValues {
  const scale = <T extends object>(numbers: T): T =>
    Object.fromEntries(Object.entries(numbers).map(([field, n]) => [field, Math.ceil((n as number) * share)])) as T;
  const result: Record<string, unknown> = {};
  for (const [network, value] of Object.entries(values)) result[network] = typeof value === "number" ? Math.ceil(value * share) : scale(value);
  const facebook = result.Facebook as ObservedValues["Facebook"];
  if (facebook) facebook.total_count = facebook.comment_count + facebook.reaction_count + facebook.share_count + facebook.comment_plugin_count;
  return result as ObservedValues;
}

export interface DemoTrackedOptions {
  store: Pick<Store, "history" | "tracked">;
  accountId: string;
  /** The plan's tracked-URL limit: only what fits is tracked. */
  limit: number;
  now: number;
  /**
   * What the networks report for a URL now (the sandbox's counts), which the made-up history grows to; null
   * with live networks: no made-up numbers are shown as theirs, the URLs are only tracked.
   */
  currentValues: ((url: string) => ObservedValues) | null;
}

/**
 * Tracks the demo URLs when the account tracks none (also after all were removed), one at a time: how many it
 * tracked. A URL new to the service gets a history from the day it was added (its access time, weeks back,
 * comes before its first point); a URL the service knew already is tracked from now, so no other account's
 * observations become the demo's. Two starts at once track each URL once.
 */
export async function seedDemoTracked({ store, accountId, limit, now, currentValues }: DemoTrackedOptions): Promise<number> {
  if ((await store.tracked.count(accountId)) > 0) return 0;
  let tracked = 0;
  for (const [i, input] of DEMO_TRACKED_URLS.slice(0, Math.max(0, limit)).entries()) {
    const parsed = parseCountUrl(input);
    if (!parsed.ok) throw new Error(`demo URL ${input} is not countable: ${parsed.reason}`);
    const url = parsed.normalized;
    const isNew = currentValues !== null && !(await store.history.knownIds([url])).has(url);
    const id = (await store.history.idsOf([url])).get(url)!;
    const at = isNew ? now - ageOf(i) * DAY - (i % 12) * HOUR : now;
    if (isNew) {
      const final = currentValues(url);
      const speed = 0.5 + (i % 6);
      // One point a day after it was added, the last one over an hour ago: the first refresh starts a new hour.
      for (let t = at + DAY; t < now - HOUR; t += DAY) await store.history.record([{ urlId: id, at: t, values: scaled(final, growth((t - at) / (now - at), speed)) }]);
    }
    await store.history.noteQueried(accountId, [id], at);
    const result = await store.tracked.add(accountId, [id], limit, at);
    if (!result.ok) break;
    tracked += result.added;
  }
  return tracked;
}
