import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxObservedValues } from "../service/sandbox/observed-values.ts";
import { freshDatabase } from "../test/support/service.ts";
import { Accounts } from "./accounts/accounts.ts";
import { createPrisma } from "./db/prisma.ts";
import { DEMO_TRACKED_URLS, seedDemoTracked } from "./demo-tracked.ts";
import { parseEnv } from "./env.ts";
import { OBSERVED_NETWORKS, type ObservedValues } from "./history/observed.ts";
import { QuotaClock } from "./quota/clock.ts";
import { KeyVault, loadServerSecret } from "./security/secrets.ts";
import { openStore } from "./store/open.ts";
import type { Store } from "./store/store.ts";

const NOW = Date.parse("2026-11-21T15:00:00Z");
const DAY = 86_400_000;
const HOUR = 3_600_000;

/** A database of its own (a copy of the migrated template), with its store and accounts. */
function testDatabase() {
  const database = freshDatabase();
  const env = parseEnv({ DATABASE_URL: database.url, QUOTA_TIMEZONE: "UTC" });
  const prisma = createPrisma(env.DATABASE_URL);
  const store = openStore(env.DATABASE_URL);
  const accounts = new Accounts(prisma, new QuotaClock("UTC", () => NOW), store);
  const close = async () => {
    await prisma.$disconnect();
    await store.close();
    fs.rmSync(database.dir, { recursive: true, force: true });
  };
  return { store, accounts, close };
}

let db: ReturnType<typeof testDatabase>;
let store: Store;
beforeAll(() => {
  db = testDatabase();
  store = db.store;
});
afterAll(() => db.close());

const newAccount = async (email: string, on = db) => (await on.accounts.create({ email, plan: "business" })).account.id;
const seed = (accountId: string, options: { limit?: number; now?: number; currentValues?: typeof sandboxObservedValues | null; on?: Store } = {}) =>
  seedDemoTracked({
    store: options.on ?? store,
    accountId,
    limit: options.limit ?? 50_000,
    now: options.now ?? NOW,
    currentValues: options.currentValues === undefined ? sandboxObservedValues : options.currentValues,
  });

/** Every number of an observation, by network and field. */
const numbersOf = (values: ObservedValues): [string, number][] =>
  OBSERVED_NETWORKS.flatMap((network): [string, number][] => {
    const value = values[network];
    if (value === undefined) return [];
    return typeof value === "number" ? [[network, value]] : Object.entries(value).map(([field, n]) => [`${network}.${field}`, n as number]);
  });

/** The account's demo URLs: each one's tracked row, points, and when the account's access to it starts. */
async function trackedBy(accountId: string, urls = DEMO_TRACKED_URLS, on = store) {
  const ids = await on.history.knownIds(urls);
  const since = await on.history.accessSince(accountId, [...ids.values()]);
  const points = (id: number) => on.history.points(id, 0, NOW + 60 * DAY);
  return Promise.all([...ids].map(async ([url, id]) => ({ url, since: since.get(id), row: await on.tracked.get(accountId, id), points: await points(id) })));
}

describe("the demo account's tracked URLs", () => {
  it("are about 30, added 3 to 42 days ago, each with a daily history it may read, growing to what the networks report now", async () => {
    const demo = await newAccount("demo-tracked@example.com");
    expect(DEMO_TRACKED_URLS.length).toBeGreaterThanOrEqual(25);
    expect(await seed(demo)).toBe(DEMO_TRACKED_URLS.length);
    const tracked = await trackedBy(demo);
    expect(tracked).toHaveLength(DEMO_TRACKED_URLS.length);
    for (const { url, since, row, points } of tracked) {
      // The account's access (it tracked the URL then) comes before the first point: its history shows them all.
      expect(row!.addedAt, url).toBe(since);
      expect(NOW - since!, url).toBeGreaterThanOrEqual(3 * DAY);
      expect(NOW - since!, url).toBeLessThan(43 * DAY);
      expect(points.length, url).toBeGreaterThanOrEqual(2);
      expect(points[0]!.at, url).toBeGreaterThan(since!);
      expect(points.at(-1)!.at, url).toBeLessThan(NOW - HOUR);
      // Each number grows (in size: a Reddit score may be negative) and stays within what is reported now.
      const final = new Map(numbersOf(sandboxObservedValues(url)));
      let previous = new Map<string, number>();
      for (const point of points) {
        const numbers = new Map(numbersOf(point.values));
        expect([...numbers.keys()].sort(), url).toEqual([...final.keys()].sort());
        for (const [field, n] of numbers) {
          expect(Math.abs(n), `${url} ${field}`).toBeGreaterThanOrEqual(Math.abs(previous.get(field) ?? 0));
          expect(Math.abs(n), `${url} ${field}`).toBeLessThanOrEqual(Math.abs(final.get(field)!));
        }
        const f = point.values.Facebook!;
        expect(f.total_count).toBe(f.comment_count + f.reaction_count + f.share_count + f.comment_plugin_count);
        previous = numbers;
      }
    }

    // A later start (a day on) adds nothing and writes no point.
    expect(await seed(demo, { now: NOW + DAY })).toBe(0);
    expect(await trackedBy(demo)).toEqual(tracked);
  });

  it("fit the plan's limit; a URL the service knew already is tracked from now, so no earlier point becomes the account's", async () => {
    const other = await newAccount("demo-tracked-other@example.com");
    expect(await seed(other, { limit: 12 })).toBe(12);
    expect(await store.tracked.count(other)).toBe(12);
    // The first test's account made these URLs known: this account's access starts now, after all their points.
    const tracked = await trackedBy(other, DEMO_TRACKED_URLS.slice(0, 12));
    expect(tracked.map((t) => t.since)).toEqual(Array(12).fill(NOW));
    expect(tracked.every((t) => t.points.every((point) => point.at < NOW))).toBe(true);
  });

  it("get no made-up history with live networks, only tracked from now", async () => {
    const fresh = testDatabase();
    try {
      const live = await newAccount("demo-tracked-live@example.com", fresh);
      expect(await seed(live, { currentValues: null, on: fresh.store })).toBe(DEMO_TRACKED_URLS.length);
      const tracked = await trackedBy(live, DEMO_TRACKED_URLS, fresh.store);
      expect(tracked).toHaveLength(DEMO_TRACKED_URLS.length);
      for (const { since, points } of tracked) {
        expect(since).toBe(NOW);
        expect(points).toEqual([]);
      }
    } finally {
      await fresh.close();
    }
  });
});
