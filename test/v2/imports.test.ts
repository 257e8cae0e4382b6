import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/document-server.ts";
import { until } from "../support/processes.ts";
import { startTestService, todayUtc, type TestService } from "../support/service.ts";

/** Sitemap and feed imports through the API, read from a server on loopback (SITEMAP_ALLOW_PRIVATE_HOSTS=true). */
let svc: TestService;
let site: TestServer;
const pages = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `https://import.example.com/${prefix}/${i}`);
const urlset = (urls: string[]) =>
  `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.map((u) => `<url><loc>${u}</loc></url>`).join("")}</urlset>`;
const rss = (urls: string[]) => `<rss version="2.0"><channel><title>t</title>${urls.map((u) => `<item><link>${u}</link></item>`).join("")}</channel></rss>`;
let feedItems = pages(2, "feed");

beforeAll(async () => {
  site = await startTestServer({
    "/index.xml": (_req, res) =>
      res.end(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${site.url("/a.xml.gz")}</loc></sitemap><sitemap><loc>${site.url("/b.xml")}</loc></sitemap></sitemapindex>`),
    "/a.xml.gz": (_req, res) => res.end(gzipSync(urlset(pages(3, "a")))),
    "/b.xml": (_req, res) => res.end(urlset([...pages(2, "b"), "not a url"])),
    "/broken.xml": (_req, res) => res.end("<urlset><url><loc>https://import.example.com/broken/0</loc></url>"),
    "/big.xml": (_req, res) => res.end(urlset(pages(120, "big"))),
    "/feed.xml": (_req, res) => res.end(rss(feedItems)),
    "/guarded.xml": (_req, res) => res.end(urlset(pages(1, "guarded"))),
    "/mixed.xml": (_req, res) => res.end(urlset(["https://allowed.example.com/page", "https://other.example.org/secret", "https://forbidden.example.net/x"])),
  });
  svc = await startTestService({ SITEMAP_ALLOW_PRIVATE_HOSTS: "true", REFRESH_POLL_MS: "100" });
});
afterAll(async () => {
  await svc?.close();
  await site?.close();
});

async function importOf(apiKey: string, body: unknown) {
  const res = await svc.get("/v2/tracked", {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(202);
  const queued = await res.json();
  expect(queued).toEqual({ import_id: expect.any(String), status: "queued" });
  return until(
    "the import to end",
    async () => (await svc.get(`/v2/imports/${queued.import_id}`, { headers: { authorization: `Bearer ${apiKey}` } })).json(),
    (state) => ["done", "failed", "cancelled"].includes(state.status),
    30_000,
  );
}

const none = { already_tracked: 0, invalid: 0, too_long: 0, not_whitelisted: 0, over_limit: 0, over_quota: 0 };

const trackedUrls = async (apiKey: string) =>
  ((await (await svc.get("/v2/tracked?limit=1000&sort=added&order=asc", { headers: { authorization: `Bearer ${apiKey}` } })).json()).data as { url: string }[]).map(
    (row) => row.url,
  );

describe("sitemap and feed imports", () => {
  it("follows a sitemap index to gzipped and plain sitemaps and tracks what they list", async () => {
    const { apiKey } = await svc.account("plus");
    expect(await importOf(apiKey, { sitemap: site.url("/index.xml") })).toMatchObject({
      status: "done",
      kind: "sitemap",
      urls_found: 6,
      added: 5,
      not_added: { ...none, invalid: 1 },
      files: 3,
      stopped: null,
      attempts: 1,
    });
    expect((await trackedUrls(apiKey)).sort()).toEqual([...pages(3, "a"), ...pages(2, "b")].sort());
    // Each URL it tracked spent one query of today's quota.
    expect((await (await svc.get(`/v1.0/quota?apikey=${apiKey}`)).json()).quota_used_today).toBe(5);
    // Imported again: nothing is new, nothing is spent.
    expect(await importOf(apiKey, { sitemap: site.url("/index.xml") })).toMatchObject({ added: 0, not_added: { ...none, invalid: 1, already_tracked: 5 } });
    expect((await (await svc.get(`/v1.0/quota?apikey=${apiKey}`)).json()).quota_used_today).toBe(5);
  });

  it("reports malformed XML as a failure (adding what was read before it), and adds what fits of a sitemap larger than the plan", async () => {
    const { apiKey } = await svc.account("free");
    const broken = await importOf(apiKey, { sitemap: site.url("/broken.xml") });
    expect(broken).toMatchObject({ status: "failed", added: 1, error: expect.stringMatching(/not well-formed XML/) });
    const big = await importOf(apiKey, { sitemap: site.url("/big.xml") });
    // Free tracks 100: one slot was taken above, 99 are left.
    expect(big).toMatchObject({ status: "done", urls_found: 120, added: 99, not_added: { ...none, over_limit: 21 }, stopped: "tracked_limit" });
    expect(await trackedUrls(apiKey)).toHaveLength(100);
  });

  it("adds until today's quota is spent, then stops (over_quota)", async () => {
    const { apiKey, email } = await svc.account("plus");
    const account = await svc.prisma.account.findUniqueOrThrow({ where: { email } });
    await svc.prisma.dailyUsage.create({ data: { accountId: account.id, day: todayUtc(), queries: 10_000 - 30 } });
    expect(await importOf(apiKey, { sitemap: site.url("/big.xml") })).toMatchObject({
      status: "done",
      urls_found: 120,
      added: 30,
      not_added: { ...none, over_quota: 90 },
      stopped: "quota",
    });
    expect((await (await svc.get(`/v1.0/quota?apikey=${apiKey}`)).json()).quota_remaining_today).toBe(0);
  });

  it("skips URLs off an enforced whitelist, counting them", async () => {
    const { apiKey, email } = await svc.account("plus");
    const account = await svc.prisma.account.findUniqueOrThrow({ where: { email } });
    await svc.prisma.account.update({ where: { id: account.id }, data: { whitelistEnabled: true, whitelist: { create: [{ domain: "allowed.example.com" }] } } });
    expect(await importOf(apiKey, { sitemap: site.url("/mixed.xml") })).toMatchObject({ status: "done", urls_found: 3, added: 1, not_added: { ...none, not_whitelisted: 2 } });
    expect(await trackedUrls(apiKey)).toEqual(["https://allowed.example.com/page"]);
  });

  it("reads a feed, and again when it is due, adding its new items", async () => {
    const { apiKey } = await svc.account("plus");
    expect(await importOf(apiKey, { feed: site.url("/feed.xml") })).toMatchObject({ status: "done", urls_found: 2, added: 2, next_read_at: expect.any(String) });
    feedItems = [...feedItems, "https://import.example.com/feed/new"];
    // The feed is due again a day later: make it due now instead of waiting.
    await svc.prisma.urlImport.updateMany({ where: { kind: "feed" }, data: { nextReadAt: BigInt(Date.now() - 1) } });
    svc.runtime.imports!.notify();
    await until("the new item", () => trackedUrls(apiKey), (urls) => urls.includes("https://import.example.com/feed/new"), 30_000);
  });

  it("caps what one account queues, and cancels feeds", async () => {
    const { apiKey } = await svc.account("plus");
    const auth = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };
    await svc.runtime.imports!.stop();
    try {
      const queue = (body: unknown) => svc.get("/v2/tracked", { method: "POST", headers: auth, body: JSON.stringify(body) });
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await (await queue({ feed: site.url(`/feed.xml?${i}`) })).json()).import_id);
      const sixth = await queue({ sitemap: site.url("/b.xml") });
      expect([sixth.status, (await sixth.json()).Type]).toEqual([429, "import_limit_exceeded"]);
      const cancel = await svc.get(`/v2/imports/${ids[0]}`, { method: "DELETE", headers: auth });
      expect(cancel.status).toBe(204);
      expect(await (await svc.get(`/v2/imports/${ids[0]}`, { headers: auth })).json()).toMatchObject({ status: "cancelled", urls_found: 0, added: 0, next_read_at: null });
      expect((await queue({ sitemap: site.url("/b.xml") })).status).toBe(202);
      for (const id of ids.slice(1)) await svc.get(`/v2/imports/${id}`, { method: "DELETE", headers: auth });
      for (const id of ["%ZZ", "%00", "a%00b", "x".repeat(65)]) {
        for (const method of ["GET", "DELETE"]) {
          const garbled = await svc.get(`/v2/imports/${id}`, { method, headers: auth });
          expect([id, method, garbled.status, (await garbled.json()).Type]).toEqual([id, method, 404, "import_not_found"]);
        }
      }
    } finally {
      svc.runtime.imports!.start();
    }
  });

  it("shows an import only to its own account, and refuses what is no http(s) URL", async () => {
    const { apiKey } = await svc.account("plus");
    const other = await svc.account("plus");
    const res = await svc.get("/v2/tracked", {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ sitemap: site.url("/b.xml") }),
    });
    const { import_id } = await res.json();
    const foreign = await svc.get(`/v2/imports/${import_id}`, { headers: { authorization: `Bearer ${other.apiKey}` } });
    expect([foreign.status, (await foreign.json()).Type]).toEqual([404, "import_not_found"]);
    const ftp = await svc.get("/v2/tracked", {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ feed: "ftp://example.com/feed" }),
    });
    expect([ftp.status, (await ftp.json()).Type]).toEqual([400, "invalid_url"]);
  });
});

describe("the guard, as deployed (SITEMAP_ALLOW_PRIVATE_HOSTS unset)", () => {
  let guarded: TestService;
  beforeAll(async () => {
    guarded = await startTestService({ REFRESH_POLL_MS: "100" });
  });
  afterAll(() => guarded?.close());

  it("refuses a sitemap on loopback, saying why", async () => {
    const { apiKey } = await guarded.account("plus");
    const res = await guarded.get("/v2/tracked", {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ sitemap: site.url("/guarded.xml") }),
    });
    const { import_id } = await res.json();
    const state = await until(
      "the import to fail",
      async () => (await guarded.get(`/v2/imports/${import_id}`, { headers: { authorization: `Bearer ${apiKey}` } })).json(),
      (s) => s.status === "failed",
      30_000,
    );
    expect(state.error).toMatch(/loopback, private, link-local or reserved address/);
    // Refused before connecting: the server never saw the request.
    expect(site.hits).not.toContain("/guarded.xml");
  });
});
