import fs from "node:fs";
import { verify as argon2Verify } from "@node-rs/argon2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "../test/support/processes.ts";
import { freshDatabase, startTestService, type TestService } from "../test/support/service.ts";
import { newKey } from "../test/support/keys.ts";
import { Accounts } from "./accounts/accounts.ts";
import { createPrisma, type PrismaClient } from "./db/prisma.ts";
import { sandboxObservedValues } from "../service/sandbox/observed-values.ts";
import { DEMO_BULK_RESULTS, DEMO_EMAIL, DEMO_HISTORY_DAYS, disableDemo, randomDemoPassword, seedDemoAccount, startDemo } from "./demo.ts";
import { DEMO_TRACKED_URLS } from "./demo-tracked.ts";
import { parseEnv, type Env } from "./env.ts";
import { QuotaClock } from "./quota/clock.ts";
import { addDays } from "./quota/day.ts";
import { KeyVault, loadServerSecret } from "./security/secrets.ts";
import { openStore } from "./store/open.ts";
import type { Store } from "./store/store.ts";

const NOW = Date.parse("2026-11-21T15:00:00Z");
const TODAY = "2026-11-21";

let database: { url: string; dir: string };
let env: Env;
let prisma: PrismaClient;
let accounts: Accounts;
let store: Store;
const clock = new QuotaClock("UTC", () => NOW);

beforeAll(() => {
  database = freshDatabase();
  env = parseEnv({ DATABASE_URL: database.url, QUOTA_TIMEZONE: "UTC" });
  prisma = createPrisma(env.DATABASE_URL);
  store = openStore(env.DATABASE_URL);
  accounts = new Accounts(prisma, clock, store);
});

afterAll(async () => {
  await prisma.$disconnect();
  await store.close();
  fs.rmSync(database.dir, { recursive: true, force: true });
});

const seed = (password?: string) => seedDemoAccount({ accounts, store, clock, password, currentValues: sandboxObservedValues });

async function demoAccount() {
  return prisma.account.findUniqueOrThrow({
    where: { email: DEMO_EMAIL },
    include: { usage: { orderBy: { day: "asc" } }, allocations: { orderBy: { day: "asc" } }, bulkJobs: { include: { urls: true } } },
  });
}

describe("the demo account", () => {
  it("is created on the first start: business plan, a month of usage, allocations, one finished bulk job", async () => {
    const first = await seed("first-password-123");
    expect(first).toMatchObject({ email: DEMO_EMAIL, password: "first-password-123", created: true, seededHistory: true, seededBulkJob: true });

    const account = await demoAccount();
    expect(account.planName).toBe("business");
    expect(await argon2Verify(account.passwordHash!, "first-password-123")).toBe(true);
    expect(account.passwordHash).toMatch(/^\$argon2id\$/);

    // 30 days before today plus today, each with plausible numbers under that day's quota.
    expect(account.usage.map((u) => u.day)).toEqual(
      Array.from({ length: DEMO_HISTORY_DAYS + 1 }, (_, i) => addDays(TODAY, i - DEMO_HISTORY_DAYS)),
    );
    expect(account.allocations.map((a) => [a.day, a.dailyQuota])).toEqual([
      [addDays(TODAY, -DEMO_HISTORY_DAYS), 10_000],
      [addDays(TODAY, -12), 100_000],
      [TODAY, 100_000],
    ]);
    const quotaOn = (day: string) => account.allocations.filter((a) => a.day <= day).at(-1)!.dailyQuota;
    for (const { day, queries } of account.usage) {
      expect(queries).toBeGreaterThan(0);
      expect(queries).toBeLessThan(quotaOn(day));
    }
    expect(account.createdAt.toISOString().slice(0, 10)).toBe(addDays(TODAY, -DEMO_HISTORY_DAYS));

    expect(account.bulkJobs).toHaveLength(1);
    const job = account.bulkJobs[0]!;
    expect(job.urlsQueued).toBe(DEMO_BULK_RESULTS.length);
    expect(job.urlsCompleted).toBe(DEMO_BULK_RESULTS.length);
    expect(job.completedAt).not.toBeNull();
    expect(Number(job.completedAt)).toBeGreaterThan(Number(job.createdAt));
    expect(Number(job.completedAt)).toBeLessThanOrEqual(NOW);
    expect(job.id).toMatch(/^[0-9a-f]{40}$/);
    expect(job.urls).toHaveLength(DEMO_BULK_RESULTS.length);
    for (const url of job.urls) {
      expect(url.completedAt).not.toBeNull();
      const result = JSON.parse(url.result!) as { Facebook: Record<string, unknown> | null; Pinterest: number | null };
      expect(Object.keys(result).sort()).toEqual(["Facebook", "Pinterest"]);
      if (result.Facebook) {
        expect(Object.keys(result.Facebook).sort()).toEqual(
          ["comment_count", "comment_plugin_count", "og_object", "reaction_count", "share_count", "total_count"].sort(),
        );
        const f = result.Facebook as Record<string, number>;
        expect(f.total_count).toBe(f.comment_count! + f.reaction_count! + f.share_count! + f.comment_plugin_count!);
      }
    }
    // "Not reported" (null) and a real zero both appear, so the dashboard's table shows the difference.
    const results = job.urls.map((u) => JSON.parse(u.result!) as { Facebook: unknown; Pinterest: unknown });
    expect(results.some((r) => r.Facebook === null)).toBe(true);
    expect(results.some((r) => r.Pinterest === null)).toBe(true);
    expect(results.some((r) => r.Pinterest === 0)).toBe(true);

    // About 30 tracked URLs with weeks of history (demo-tracked.test.ts checks them).
    expect(first.seededTracked).toBe(DEMO_TRACKED_URLS.length);
    expect(await store.tracked.count(account.id)).toBe(DEMO_TRACKED_URLS.length);
  });

  it("on later starts only gets a new password, and its earlier sessions end", async () => {
    const before = await demoAccount();
    const keysBefore = await prisma.apiKey.findMany({ where: { accountId: before.id } });
    await prisma.session.create({
      data: { sessionToken: "hash-of-some-token", userId: before.id, expires: new Date(NOW + 86_400_000) },
    });

    const second = await seed("second-password-456");
    expect(second).toMatchObject({ created: false, seededHistory: false, seededBulkJob: false, seededTracked: 0 });
    expect(await store.tracked.count(before.id)).toBe(DEMO_TRACKED_URLS.length);
    const after = await demoAccount();
    expect(await argon2Verify(after.passwordHash!, "second-password-456")).toBe(true);
    expect(await argon2Verify(after.passwordHash!, "first-password-123")).toBe(false);
    expect(await prisma.session.count({ where: { userId: after.id } })).toBe(0);
    // Nothing written twice.
    expect(after.usage).toEqual(before.usage);
    expect(after.allocations).toEqual(before.allocations);
    expect(after.bulkJobs.map((j) => j.id)).toEqual(before.bulkJobs.map((j) => j.id));
    expect(await prisma.apiKey.findMany({ where: { accountId: after.id } })).toEqual(keysBefore);
    expect(await prisma.account.count({ where: { email: DEMO_EMAIL } })).toBe(1);
  });

  it("gets its finished job back once retention removed it, and two starts at once write nothing twice", async () => {
    const account = await demoAccount();
    await prisma.bulkJob.deleteMany({ where: { accountId: account.id } });
    await Promise.all([seed(), seed()]);
    expect(await prisma.bulkJob.count({ where: { accountId: account.id } })).toBe(1);
    expect(await prisma.dailyUsage.count({ where: { accountId: account.id } })).toBe(DEMO_HISTORY_DAYS + 1);
  });

  it("generates a random password each time, never a fixed one", async () => {
    const a = await seed();
    const b = await seed();
    expect(a.password).not.toBe(b.password);
    expect(a.password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(new Set(Array.from({ length: 50 }, randomDemoPassword)).size).toBe(50);
  });

  it("prints its email, password and sign-in URL as one JSON line and one line for people", async () => {
    const lines: string[] = [];
    const result = await startDemo(env, "http://127.0.0.1:4321", { currentValues: null, log: (line) => lines.push(line) });
    expect(result).not.toBeNull();
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]!)).toEqual({
      event: "demo_account",
      email: DEMO_EMAIL,
      password: result!.password,
      url: "http://127.0.0.1:4321/sign-in",
    });
    expect(lines[1]).toContain(result!.password);
    expect(lines[1]).toContain(DEMO_EMAIL);
    const account = await demoAccount();
    expect(await argon2Verify(account.passwordHash!, result!.password!)).toBe(true);
  });

  it("behind an https public URL, sets no password and prints none", async () => {
    const lines: string[] = [];
    const result = await startDemo(env, "https://sharecount.example.com", { currentValues: null, log: (line) => lines.push(line) });
    expect(result).toMatchObject({ email: DEMO_EMAIL, password: null });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ event: "demo_account", email: DEMO_EMAIL, password: null });
    expect((await demoAccount()).passwordHash).toBeNull();
  });

  it("cannot be signed in to once the demo is switched off", async () => {
    await disableDemo(env);
    const account = await demoAccount();
    expect(account.passwordHash).toBeNull();
    expect(await prisma.session.count({ where: { userId: account.id } })).toBe(0);
    // Its data stays.
    expect(account.usage.length).toBe(DEMO_HISTORY_DAYS + 1);
  });
});

describe("the demo account through the public API", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ REFRESH_POLL_MS: "100" });
    await seedDemoAccount({ accounts: service.accounts, store: service.runtime.store, clock: service.clock, currentValues: sandboxObservedValues });
  });
  afterAll(async () => {
    await service?.close();
  });

  it("has a usage report with history and a finished job the bulk endpoint answers", async () => {
    const account = await service.prisma.account.findUniqueOrThrow({ where: { email: DEMO_EMAIL }, include: { bulkJobs: true } });
    const key = await newKey(service.prisma, account.id);

    const quota = (await (await service.get(`/v1.0/quota?apikey=${key}`)).json()) as Record<string, unknown>;
    expect(quota).toMatchObject({ plan: "business", quota_allocated_today: 100_000 });
    expect(quota.quota_used_today).toBeGreaterThan(0);

    const usage = (await (await service.get(`/v1.0/usage?apikey=${key}`)).json()) as Record<string, { queries: number; quota: number }>;
    const days = Object.values(usage);
    expect(days).toHaveLength(90);
    expect(days.filter((d) => d.queries > 0)).toHaveLength(DEMO_HISTORY_DAYS + 1);
    expect(new Set(days.filter((d) => d.queries > 0).map((d) => d.quota))).toEqual(new Set([10_000, 100_000]));
    // Before the account existed: quota 0.
    expect(days[0]).toMatchObject({ queries: 0, quota: 0 });

    const jobId = account.bulkJobs[0]!.id;
    const res = await service.get(`/v1.1/bulk?bulk_id=${jobId}&apikey=${key}`);
    expect(res.status).toBe(200);
    const job = (await res.json()) as { data: Record<string, { Facebook: Record<string, unknown>; Pinterest: number | null }>; _meta: Record<string, unknown> };
    expect(job._meta).toMatchObject({ completed: true, urls_completed: DEMO_BULK_RESULTS.length, urls_queued: DEMO_BULK_RESULTS.length, bulk_id: jobId });
    expect(Object.keys(job.data)).toEqual(DEMO_BULK_RESULTS.map((r) => r.url));
    expect(job.data["https://example.com/"]).toEqual({
      Pinterest: 9,
      Facebook: { total_count: 168, comment_count: 53, reaction_count: 14, share_count: 101, comment_plugin_count: 0 },
    });
    // Not reported: Facebook keeps its keys with nulls, Pinterest is null.
    expect(job.data["https://example.org/not-shared-yet"]).toEqual({
      Pinterest: null,
      Facebook: { total_count: null, comment_count: null, reaction_count: null, share_count: null, comment_plugin_count: null },
    });
  });

  it("has its tracked URLs listed, counted by the first refresh where their history leaves off, and their history readable", async () => {
    const account = await service.prisma.account.findUniqueOrThrow({ where: { email: DEMO_EMAIL } });
    const key = await newKey(service.prisma, account.id);
    type Row = { url: string; total: number | null; change_7d: number | null; networks: Record<string, { status: string }> };
    const rows = await until(
      "the scheduler's first refresh of every demo URL",
      async () => ((await (await service.get(`/v2/tracked?apikey=${key}&limit=100&sort=added`)).json()) as { data: Row[] }).data,
      (data) => data.length === DEMO_TRACKED_URLS.length && data.every((row) => row.total !== null),
    );
    expect(rows.map((row) => row.url).sort()).toEqual([...DEMO_TRACKED_URLS].sort());
    // The refresh reads the sandbox's counts, which the made-up history grew to: most URLs grew over the week.
    expect(rows.filter((row) => (row.change_7d ?? 0) > 0).length).toBeGreaterThan(DEMO_TRACKED_URLS.length / 2);
    const url = DEMO_TRACKED_URLS[0]!;
    const history = (await (await service.get(`/v2/history?apikey=${key}&url=${encodeURIComponent(url)}&interval=day`)).json()) as { points: unknown[] };
    expect(history.points.length).toBeGreaterThanOrEqual(3);

    // What the history grows to is what the sandbox answers (each network that answered fresh just now).
    const answer = (await (await service.get(`/v2/counts?apikey=${key}&url=${encodeURIComponent(url)}`)).json()) as { networks: Record<string, Record<string, unknown>> };
    const { Facebook, Pinterest, ...more } = sandboxObservedValues(url);
    const expected: Record<string, object> = { facebook: Facebook!, pinterest: { count: Pinterest }, ...more };
    const answered = Object.entries(answer.networks).filter(([, network]) => network.status === "ok");
    expect(answered.length).toBeGreaterThanOrEqual(6);
    for (const [network, values] of answered) expect(values, network).toMatchObject(expected[network]!);
  });
});
