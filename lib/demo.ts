import { randomBytes } from "node:crypto";
import { systemSource } from "./audit/actor.ts";
import { AccountError, Accounts } from "./accounts/accounts.ts";
import { newBulkId } from "./bulk/bulk-id.ts";
import { createPrisma } from "./db/prisma.ts";
import type { Env } from "./env.ts";
import { DEFAULT_PLANS } from "./accounts/plans.ts";
import { seedDemoTracked } from "./demo-tracked.ts";
import type { ObservedValues } from "./history/observed.ts";
import { QuotaClock } from "./quota/clock.ts";
import { addDays } from "./quota/day.ts";
import { KeyVault, loadServerSecret } from "./security/secrets.ts";
import { openStore } from "./store/open.ts";
import type { Store } from "./store/store.ts";
import { parseCountUrl } from "./urls/count-url.ts";
import { log as logger } from "./log/log.ts";

/**
 * The demo account `npm start` seeds (SHARECOUNT_DEMO=true, the default): a business plan with a month of
 * usage history (on the plus plan for its first weeks, so the chart's quota line steps up), one finished
 * bulk job, and about 30 tracked URLs with weeks of count history (demo-tracked.ts). Each is written once;
 * every start gives it a new random password (never a fixed, known one: the server may be reachable by
 * others) and signs out its earlier sessions.
 */
export const DEMO_EMAIL = "demo@sharecount.local";
export const DEMO_PLAN = "business";
/** Days of usage history before today. */
export const DEMO_HISTORY_DAYS = 30;
/** The history's first days were on this plan; the account moved to business this many days ago. */
const EARLIER_PLAN = "plus";
const UPGRADED_DAYS_AGO = 12;

type Facebook = {
  total_count: number;
  comment_count: number;
  reaction_count: number;
  share_count: number;
  comment_plugin_count: number;
  og_object: null;
};

/** What the worker stores per URL (StoredCounts in service/counts/count-object.ts): null = not reported. */
export interface DemoCounts {
  Facebook: Facebook | null;
  Pinterest: number | null;
}

function facebook(comment: number, reaction: number, share: number, plugin = 0): Facebook {
  return {
    total_count: comment + reaction + share + plugin,
    comment_count: comment,
    reaction_count: reaction,
    share_count: share,
    comment_plugin_count: plugin,
    og_object: null,
  };
}

/** The finished job's URLs and results: real zeros and "not reported" (null) both appear. */
export const DEMO_BULK_RESULTS: { url: string; counts: DemoCounts }[] = [
  { url: "https://example.com/", counts: { Facebook: facebook(53, 14, 101), Pinterest: 9 } },
  { url: "https://www.wikipedia.org/", counts: { Facebook: facebook(1204, 5310, 8877, 12), Pinterest: 412 } },
  { url: "https://developer.mozilla.org/en-US/docs/Web/HTTP", counts: { Facebook: facebook(88, 240, 615), Pinterest: 3 } },
  { url: "https://nodejs.org/en/blog", counts: { Facebook: facebook(31, 97, 204), Pinterest: 0 } },
  { url: "https://github.com/explore", counts: { Facebook: facebook(410, 1322, 2950, 4), Pinterest: 57 } },
  { url: "https://news.ycombinator.com/", counts: { Facebook: facebook(0, 0, 0), Pinterest: 0 } },
  { url: "https://www.nasa.gov/missions/", counts: { Facebook: facebook(2210, 18_400, 9_120, 35), Pinterest: 1_804 } },
  { url: "https://example.org/not-shared-yet", counts: { Facebook: null, Pinterest: null } },
  { url: "https://blog.example.net/2026/launch", counts: { Facebook: facebook(7, 19, 12), Pinterest: null } },
];

export interface DemoSeed {
  email: string;
  password: string;
  /** True on the first start (the account was created now). */
  created: boolean;
  /** Whether the usage history and the bulk job were written by this call (each is written only once). */
  seededHistory: boolean;
  seededBulkJob: boolean;
  /** How many URLs this call began tracking (0 when the account tracks some already). */
  seededTracked: number;
}

export interface DemoSeedOptions {
  /** Built on the same clock: the account's allocation starts on the same day as its history ends. */
  accounts: Accounts;
  /** The owners of usage, bulk jobs, history and tracked URLs. */
  store: Pick<Store, "usage" | "bulk" | "history" | "tracked">;
  clock: QuotaClock;
  /** What the networks report for a URL now, which the tracked URLs' made-up history grows to (null: none is made up). */
  currentValues: ((url: string) => ObservedValues) | null;
  /** Only for tests: the password to set instead of a random one. */
  password?: string;
}

/** A random password: 144 bits, URL-safe, easy to copy from a terminal. */
export function randomDemoPassword(): string {
  return randomBytes(18).toString("base64url");
}

/** A small deterministic generator, so the demo history looks the same on every machine. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Queries per day: lower at weekends, growing after the upgrade, always below that day's quota. */
export function demoUsage(today: string, now: number): { day: string; queries: number }[] {
  const random = prng(20_261_121);
  const rows: { day: string; queries: number }[] = [];
  for (let back = DEMO_HISTORY_DAYS; back >= 1; back--) {
    const day = addDays(today, -back);
    const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
    const weekend = weekday === 0 || weekday === 6 ? 0.45 : 1;
    const upgraded = back <= UPGRADED_DAYS_AGO;
    const quota = DEFAULT_PLANS[upgraded ? DEMO_PLAN : EARLIER_PLAN].dailyQuota;
    // Plus days run close to their 10,000 limit (why the account upgraded); business days use 25–60%.
    const share = upgraded ? 0.25 + 0.35 * random() : 0.6 + 0.35 * random();
    rows.push({ day, queries: Math.max(1, Math.min(quota - 1, Math.round(quota * share * weekend))) });
  }
  // Today so far: in proportion to the part of the day that has passed (UTC is close enough for a demo).
  const elapsed = (now % 86_400_000) / 86_400_000;
  rows.push({ day: today, queries: Math.max(1, Math.round(42_000 * elapsed)) });
  return rows;
}

async function findOrCreate(accounts: Accounts, password: string): Promise<{ account: { id: string }; created: boolean }> {
  const existing = await accounts.idOf(DEMO_EMAIL);
  if (existing) return { account: { id: existing }, created: false };
  try {
    const { account } = await accounts.create({ email: DEMO_EMAIL, plan: DEMO_PLAN, password });
    return { account, created: true };
  } catch (error) {
    // Another process seeding the same database created it first.
    const created = await accounts.idOf(DEMO_EMAIL);
    if (!(error instanceof AccountError) || !created) throw error;
    return { account: { id: created }, created: false };
  }
}

/**
 * Creates the demo account with its history and job when they are missing, and sets a new password.
 * Safe to call on every start and from two processes at once: nothing is written twice.
 */
export async function seedDemoAccount(options: DemoSeedOptions): Promise<DemoSeed> {
  const { accounts, store, clock } = options;
  const now = clock.now();
  const password = options.password ?? randomDemoPassword();
  const { account, created } = await findOrCreate(accounts, password);
  const today = clock.today().day;
  const firstDay = addDays(today, -DEMO_HISTORY_DAYS);

  if (!created) {
    // A new password at every start; sessions signed in with an earlier one end.
    await accounts.setPassword(account.id, password, { audit: systemSource(now), via: "admin" });
  }

  // History: once (the account has no usage rows yet). The usage rows go last: once they are there the
  // history is complete, and a start that died before them writes the rest again.
  let seededHistory = false;
  if ((await store.usage.between(account.id, firstDay, today)).length === 0) {
    await accounts.importHistory(account.id, new Date(`${firstDay}T09:30:00Z`), [
      { day: firstDay, dailyQuota: DEFAULT_PLANS[EARLIER_PLAN].dailyQuota },
      { day: addDays(today, -UPGRADED_DAYS_AGO), dailyQuota: DEFAULT_PLANS[DEMO_PLAN].dailyQuota },
    ]);
    seededHistory = await store.usage.importHistory(account.id, demoUsage(today, now));
  }

  // One finished bulk job, when the account has none (also after the retention period removed it).
  let seededBulkJob = false;
  if ((await store.bulk.jobsOf(account.id)).length === 0) {
    const completedAt = now - 3_600_000;
    const createdAt = completedAt - 41_000;
    const step = (completedAt - createdAt) / DEMO_BULK_RESULTS.length;
    await store.bulk.importCompleted(
      { id: newBulkId(), accountId: account.id, createdAt, completedAt, name: "demo-articles.txt" },
      DEMO_BULK_RESULTS.map(({ url, counts }, i) => {
        const parsed = parseCountUrl(url);
        if (!parsed.ok) throw new Error(`demo URL ${url} is not countable: ${parsed.reason}`);
        return { url, countUrl: parsed.normalized, counts, completedAt: createdAt + Math.round((i + 1) * step) };
      }),
    );
    seededBulkJob = true;
  }

  const limit = (await accounts.planOf(account.id)).trackedUrlLimit;
  const seededTracked = await seedDemoTracked({ store, accountId: account.id, limit, now, currentValues: options.currentValues });

  return { email: DEMO_EMAIL, password, created, seededHistory, seededBulkJob, seededTracked };
}

/**
 * `npm start`'s demo account: seeds it and prints how to sign in (one JSON line for machines, one for people).
 * Behind an https public URL (a real deployment, whose logs others may read) no password is printed: the
 * account is seeded without one. A failure is reported and does not stop the server. `currentValues`: see
 * DemoSeedOptions (the sandbox's counts, from the caller: lib knows no network).
 */
export async function startDemo(
  env: Env,
  baseUrl: string,
  { currentValues, log = console.log }: { currentValues: DemoSeedOptions["currentValues"]; log?: (line: string) => void },
): Promise<(Omit<DemoSeed, "password"> & { password: string | null }) | null> {
  try {
    const seed = await withAccounts(env, (options) => seedDemoAccount({ ...options, currentValues }));
    const url = `${baseUrl}/sign-in`;
    if (baseUrl.startsWith("https:")) {
      await disableDemo(env, () => {});
      log(JSON.stringify({ event: "demo_account", email: seed.email, password: null, url, note: "no password is set or printed behind an https public URL" }));
      return { ...seed, password: null };
    }
    log(JSON.stringify({ event: "demo_account", email: seed.email, password: seed.password, url }));
    log(
      `Demo account: sign in at ${url} as ${seed.email} with password ${seed.password} ` +
        `(new at every start; set SHARECOUNT_DEMO=false to turn the demo account off)`,
    );
    return seed;
  } catch (error) {
    logger.error({ event: "demo_account_failed", err: error });
    return null;
  }
}

/**
 * With SHARECOUNT_DEMO=false, a demo account left from earlier starts can no longer be signed in to: its
 * password (printed in an old log) is removed and its sessions end. Its data stays.
 */
export async function disableDemo(env: Env, log: (line: string) => void = console.log): Promise<void> {
  await withAccounts(env, async ({ accounts, clock }) => {
    const id = await accounts.idOf(DEMO_EMAIL);
    if (!id || !(await accounts.hasPassword(id))) return;
    await accounts.setPassword(id, null, { audit: systemSource(clock.now()), via: "admin" });
    log(JSON.stringify({ event: "demo_account_disabled", email: DEMO_EMAIL }));
  });
}

/** The accounts of `npm start`'s database, with its key vault, for the time `use` takes. */
async function withAccounts<T>(env: Env, use: (options: Omit<DemoSeedOptions, "currentValues">) => Promise<T>): Promise<T> {
  const prisma = createPrisma(env.DATABASE_URL);
  const store = openStore(env.DATABASE_URL);
  try {
    const clock = new QuotaClock(env.QUOTA_TIMEZONE);
    return await use({ store, clock, accounts: new Accounts(prisma, clock, store) });
  } finally {
    await prisma.$disconnect();
    await store.close();
  }
}
