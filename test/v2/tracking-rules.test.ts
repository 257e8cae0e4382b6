import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "../support/processes.ts";
import { startTestService, type TestService } from "../support/service.ts";
import { bearer } from "../support/bearer.ts";

/*
 * Tracking reads URLs as the dashboard does (a bare host or host/path is https) and is held to the count API's
 * rules: each URL newly tracked spends a query of today's quota (atomically, so parallel requests cannot overrun
 * it), an enforced whitelist refuses every v2 route that names a URL off it, and an account's history of a URL
 * holds only what was observed since it came to the URL. The service's clock is this file's (`now`): quota days,
 * history points and the schedule all read it.
 */

const HOUR = 3_600_000;
/** A fixed moment (2026-06-01T10:00Z), moved forward by the tests. */
let now = Date.UTC(2026, 5, 1, 10);
let svc: TestService;
let seq = 0;
const fresh = (host = "example.com") => `https://${host}/rules-${++seq}-${Math.random().toString(36).slice(2, 8)}`;

beforeAll(async () => {
  svc = await startTestService({ REFRESH_POLL_MS: "100" }, { now: () => now });
});
afterAll(() => svc?.close());

const post = (key: string, body: unknown) =>
  svc.get("/v2/tracked", { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(body) });
const quotaOf = async (key: string) => (await (await svc.get(`/v1.0/quota?apikey=${key}`)).json()) as { quota_used_today: number; quota_remaining_today: number };
const today = () => new Date(now).toISOString().slice(0, 10);

/** An account on `plan` that has `left` queries left today. */
async function accountWithQuotaLeft(plan: string, left: number) {
  const { apiKey, email } = await svc.account(plan);
  const { id } = await svc.prisma.account.findUniqueOrThrow({ where: { email } });
  const { dailyQuota } = await svc.prisma.plan.findUniqueOrThrow({ where: { name: plan } });
  await svc.prisma.dailyUsage.create({ data: { accountId: id, day: today(), queries: dailyQuota - left } });
  return { apiKey, id };
}

describe("the URL rule", () => {
  it("reads a URL without a scheme (example.org/page) as https, as the dashboard does, while v1.0 keeps refusing it", async () => {
    const { apiKey } = await svc.account("plus");
    const bare = fresh("bare.example.org").slice("https://".length);
    const res = await post(apiKey, { urls: [bare, `https://${bare}`, "someone@bare.example.org"] });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ added: 1, already_tracked: 1, invalid: 1, over_limit: 0, over_quota: 0 });
    const list = await (await svc.get("/v2/tracked", bearer(apiKey))).json();
    expect(list.data.map((row: { url: string }) => row.url)).toEqual([`https://${bare}`]);
    const v1 = await svc.get(`/v1.0/?url=${encodeURIComponent(bare)}&apikey=${apiKey}`);
    expect([v1.status, (await v1.json()).Type]).toEqual([400, "invalid_url"]);
  });
});

describe("tracking spends the daily quota", () => {
  it("one query per URL newly tracked; repeats, tracked URLs and removals are free, and removing gives nothing back", async () => {
    const { apiKey } = await svc.account("free");
    const [a, b, c] = [fresh(), fresh(), fresh()];
    expect(await (await post(apiKey, { urls: [a, b, a] })).json()).toMatchObject({ added: 2, already_tracked: 1 });
    expect((await quotaOf(apiKey)).quota_used_today).toBe(2);
    expect(await (await post(apiKey, { urls: [a, b, c] })).json()).toMatchObject({ added: 1, already_tracked: 2 });
    expect((await quotaOf(apiKey)).quota_used_today).toBe(3);
    expect((await svc.get(`/v2/tracked?url=${encodeURIComponent(a)}`, { method: "DELETE", ...bearer(apiKey) })).status).toBe(204);
    expect((await quotaOf(apiKey)).quota_used_today).toBe(3);
    // Tracked again after removal: a new addition, paid again.
    expect(await (await post(apiKey, { urls: [a] })).json()).toMatchObject({ added: 1 });
    expect((await quotaOf(apiKey)).quota_used_today).toBe(4);
  });

  it("refuses whole, 403 quota_exceeded, what needs more than is left, and adds what fits with add_what_fits", async () => {
    const { apiKey } = await accountWithQuotaLeft("plus", 2);
    const urls = [fresh(), fresh(), fresh()];
    const refused = await post(apiKey, { urls });
    expect(refused.status).toBe(403);
    const body = await refused.json();
    expect(body).toEqual({ Type: "quota_exceeded", Error: expect.stringMatching(/spends 3 queries of today's quota; 2 are left\. Nothing was added/) });
    expect((await (await svc.get("/v2/tracked", bearer(apiKey))).json()).data).toEqual([]);
    expect((await quotaOf(apiKey)).quota_remaining_today).toBe(2);

    const fits = await post(apiKey, { urls, on_limit: "add_what_fits" });
    expect(await fits.json()).toEqual({ added: 2, already_tracked: 0, invalid: 0, over_limit: 0, over_quota: 1 });
    expect((await quotaOf(apiKey)).quota_remaining_today).toBe(0);
    // Nothing left: a new URL is refused, a tracked one is free.
    expect((await post(apiKey, { urls: [fresh()] })).status).toBe(403);
    expect(await (await post(apiKey, { urls: [urls[0]] })).json()).toMatchObject({ added: 0, already_tracked: 1 });
  });

  it("adds what both the slots and the quota allow with add_what_fits, slots first", async () => {
    const { apiKey } = await accountWithQuotaLeft("free", 3);
    const tracked = Array.from({ length: 98 }, () => fresh());
    await svc.prisma.plan.update({ where: { name: "free" }, data: { dailyQuota: 10_000 } });
    try {
      expect(await (await post(apiKey, { urls: tracked })).json()).toMatchObject({ added: 98 });
      const res = await post(apiKey, { urls: [fresh(), fresh(), fresh(), fresh()], on_limit: "add_what_fits" });
      expect(await res.json()).toEqual({ added: 2, already_tracked: 0, invalid: 0, over_limit: 2, over_quota: 0 });
      const refused = await post(apiKey, { urls: [fresh()] });
      expect([refused.status, (await refused.json()).Type]).toEqual([403, "tracked_limit_exceeded"]);
    } finally {
      await svc.prisma.plan.update({ where: { name: "free" }, data: { dailyQuota: 500 } });
    }
  });

  it("holds under concurrency: 40 parallel requests for an account with 25 queries left add exactly 25", async () => {
    const { apiKey } = await accountWithQuotaLeft("plus", 25);
    const answers = await Promise.all(Array.from({ length: 40 }, () => post(apiKey, { urls: [fresh()], on_limit: "add_what_fits" }).then((r) => r.json())));
    expect(answers.reduce((sum, a) => sum + a.added, 0)).toBe(25);
    expect(answers.reduce((sum, a) => sum + a.over_quota, 0)).toBe(15);
    expect((await quotaOf(apiKey)).quota_remaining_today).toBe(0);
    expect((await (await svc.get("/v2/tracked/status", bearer(apiKey))).json()).tracked).toBe(25);
  });

  it("refreshes stay free", async () => {
    const { apiKey } = await svc.account("free");
    await post(apiKey, { urls: [fresh(), fresh()] });
    await until("both refreshed", async () => (await (await svc.get("/v2/tracked", bearer(apiKey))).json()).data, (rows) => rows.every((r: { last_refreshed_at: string | null }) => r.last_refreshed_at), 20_000);
    expect((await quotaOf(apiKey)).quota_used_today).toBe(2);
  });
});

describe("aliases", () => {
  it("spend one query of today's quota for each one new to the URL, all or none; unchanged ones are free", async () => {
    const { apiKey } = await accountWithQuotaLeft("plus", 4);
    const url = fresh();
    expect(await (await post(apiKey, { urls: [url] })).json()).toMatchObject({ added: 1 });
    const put = (aliases: string[]) =>
      svc.get("/v2/tracked/aliases", { method: "PUT", headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" }, body: JSON.stringify({ url, aliases }) });
    const [a, b, c, d] = [fresh(), fresh(), fresh(), fresh()];
    expect((await put([a, b])).status).toBe(200);
    expect((await quotaOf(apiKey)).quota_remaining_today).toBe(1);
    expect((await put([a, b])).status).toBe(200);
    expect((await quotaOf(apiKey)).quota_remaining_today).toBe(1);
    const refused = await put([a, c, d]);
    expect([refused.status, (await refused.json()).Type]).toEqual([403, "quota_exceeded"]);
    expect((await (await svc.get(`/v2/tracked/url?url=${encodeURIComponent(url)}`, bearer(apiKey))).json()).aliases).toEqual([a, b]);
    expect((await put([a, c])).status).toBe(200);
    expect((await quotaOf(apiKey)).quota_remaining_today).toBe(0);
  });
});

describe("an enforced whitelist", () => {
  let apiKey: string;
  beforeAll(async () => {
    const account = await svc.account("business");
    apiKey = account.apiKey;
    const { id } = await svc.prisma.account.findUniqueOrThrow({ where: { email: account.email } });
    await svc.prisma.account.update({ where: { id }, data: { whitelistEnabled: true, whitelist: { create: [{ domain: "allowed.example.com" }] } } });
  });

  it("refuses every v2 route that names a URL off it, with the count API's 403", async () => {
    const allowed = fresh("allowed.example.com");
    const other = fresh("other.example.org");
    expect((await post(apiKey, { urls: [allowed] })).status).toBe(200);
    const json = (body: unknown) => ({ headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" }, body: JSON.stringify(body) });
    const routes: [string, RequestInit][] = [
      [`/v2/counts?url=${encodeURIComponent(other)}`, bearer(apiKey)],
      [`/v2/history?url=${encodeURIComponent(other)}`, bearer(apiKey)],
      [`/v2/history.csv?url=${encodeURIComponent(other)}`, bearer(apiKey)],
      ["/v2/tracked", { method: "POST", ...json({ urls: [allowed, other] }) }],
      ["/v2/tracked", { method: "POST", ...json({ urls: [other], on_limit: "add_what_fits" }) }],
      ["/v2/tracked/aliases", { method: "PUT", ...json({ url: allowed, aliases: [other] }) }],
      ["/v2/bulk", { method: "POST", ...json({ urls: [allowed, other] }) }],
    ];
    for (const [path, init] of routes) {
      const res = await svc.get(path, init);
      expect([path, res.status, (await res.json()).Type]).toEqual([path, 403, "domain_not_whitelisted"]);
    }
    // Nothing of the refused requests was kept: no alias, no second tracked URL, no job.
    const detail = await (await svc.get(`/v2/tracked/url?url=${encodeURIComponent(allowed)}`, bearer(apiKey))).json();
    expect(detail.aliases).toEqual([]);
    expect((await (await svc.get("/v2/tracked", bearer(apiKey))).json()).data.map((r: { url: string }) => r.url)).toEqual([allowed]);
    expect((await quotaOf(apiKey)).quota_used_today).toBe(1);
  });

  it("asks only the variants on it", async () => {
    const url = fresh("allowed.example.com");
    const body = await (await svc.get(`/v2/counts?variants=true&url=${encodeURIComponent(url)}`, bearer(apiKey))).json();
    expect(body.variants.length).toBeGreaterThan(0);
    for (const variant of body.variants) expect(new URL(variant.url).hostname).toBe("allowed.example.com");
  });
});

describe("history is an account's own", () => {
  it("holds only points observed since the account first queried or tracked the URL", async () => {
    const victim = await svc.account("business");
    const snoop = await svc.account("business");
    const url = fresh("victim-corp.example.com");
    // The victim asks at 10:00, through v1 (Facebook and Pinterest).
    expect((await svc.get(`/v1.0/?url=${encodeURIComponent(url)}&apikey=${victim.apiKey}`)).status).toBe(200);
    const asked = now;
    // Two hours later another account tracks the same URL and is refreshed.
    now += 2 * HOUR;
    const tracked = now;
    expect(await (await post(snoop.apiKey, { urls: [url] })).json()).toMatchObject({ added: 1 });
    await until("the refresh", async () => (await (await svc.get("/v2/tracked", bearer(snoop.apiKey))).json()).data[0], (row) => row?.last_refreshed_at !== null, 20_000);

    const points = async (key: string) => ((await (await svc.get(`/v2/history?interval=hour&url=${encodeURIComponent(url)}`, bearer(key))).json()).points as { t: string }[]).map((p) => Date.parse(p.t));
    const seenBySnoop = await points(snoop.apiKey);
    expect(seenBySnoop.length).toBeGreaterThan(0);
    expect(seenBySnoop.every((t) => t >= tracked)).toBe(true);
    // The victim's own history has its query and the shared refresh since.
    expect(await points(victim.apiKey)).toEqual([asked, ...seenBySnoop]);
    const csv = await (await svc.get(`/v2/history.csv?interval=hour&url=${encodeURIComponent(url)}`, bearer(snoop.apiKey))).text();
    expect(csv).not.toContain(new Date(asked).toISOString());
    // The tracked list's sparkline and its 7-day change compare nothing from before either.
    const row = (await (await svc.get("/v2/tracked?sparkline=true", bearer(snoop.apiKey))).json()).data[0];
    expect(row.sparkline.filter((v: number | null) => v !== null)).toHaveLength(1);
    expect(row.change_7d).toBeNull();
  });
  it("leaves out an hour's point that merges another account's earlier observation", async () => {
    const first = await svc.account("business");
    const second = await svc.account("business");
    const url = fresh("merged.example.com");
    now += 3 * HOUR;
    // The first account asks Reddit and VK; moments later, in the same hour, the second asks Facebook.
    expect((await svc.get(`/v2/counts?networks=reddit,vk&url=${encodeURIComponent(url)}`, bearer(first.apiKey))).status).toBe(200);
    now += 1_500;
    expect((await svc.get(`/v2/counts?networks=facebook&url=${encodeURIComponent(url)}`, bearer(second.apiKey))).status).toBe(200);
    const pointsOf = async (key: string) => (await (await svc.get(`/v2/history?interval=hour&url=${encodeURIComponent(url)}`, bearer(key))).json()).points;
    expect(await pointsOf(second.apiKey)).toEqual([]);
    const own = await pointsOf(first.apiKey);
    expect(own).toHaveLength(1);
    expect(own[0].networks.reddit.status).toBe("ok");
  });

  it("shows an alias's counts only from when it was set", async () => {
    const asker = await svc.account("business");
    const tracker = await svc.account("business");
    const url = fresh("alias-owner.example.com");
    const alias = fresh("alias-target.example.com");
    now += 3 * HOUR;
    expect(await (await post(tracker.apiKey, { urls: [url] })).json()).toMatchObject({ added: 1 });
    now += HOUR;
    // Another account asks about the future alias; then the tracker makes it an alias.
    expect((await svc.get(`/v1.0/?url=${encodeURIComponent(alias)}&apikey=${asker.apiKey}`)).status).toBe(200);
    now += 10 * 60_000;
    const setAt = now;
    const put = await svc.get("/v2/tracked/aliases", {
      method: "PUT",
      headers: { authorization: `Bearer ${tracker.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ url, aliases: [alias] }),
    });
    expect(put.status).toBe(200);
    const form = async () =>
      ((await (await svc.get(`/v2/tracked/url?url=${encodeURIComponent(url)}`, bearer(tracker.apiKey))).json()).forms as { url: string; observed_at: string | null }[]).find(
        (f) => f.url === alias,
      );
    const seen = await form();
    expect(seen?.observed_at === null || Date.parse(seen!.observed_at!) >= setAt).toBe(true);
  });
});
