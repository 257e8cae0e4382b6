import type { ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sitemapIndex, startTestServer, urlset, type TestServer } from "../support/document-server.ts";
import { until } from "../support/processes.ts";
import { startTestService, type TestService } from "../support/service.ts";

/*
 * What one import may cost the service, whatever it is handed: the attacks that took it down (a sitemap index of
 * gzipped sitemaps, each holding one 48 MB <loc>; an index of 1,000 children; documents that trickle), on the
 * real service with its default bounds, and the service's memory watched while they run.
 */

let svc: TestService;
let site: TestServer;
const trickles = new Set<ServerResponse>();

/** A sitemap whose one <loc> is `megabytes` MB long, gzipped (about 50 KB for 48 MB). */
const bigLoc = (megabytes: number) => gzipSync(`<urlset><url><loc>https://example.com/${"a".repeat(megabytes * 1024 * 1024)}</loc></url></urlset>`);
const children = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `/${prefix}/${i}.xml`);

/** Writes a sitemap one URL every 100 ms until the reader goes away. */
function trickle(res: ServerResponse, prefix: string) {
  trickles.add(res);
  res.write("<urlset>");
  let i = 0;
  const timer = setInterval(() => res.write(`<url><loc>https://bounds.example.com/${prefix}/${i++}</loc></url>`), 100);
  res.on("close", () => {
    clearInterval(timer);
    trickles.delete(res);
  });
}

beforeAll(async () => {
  const big = bigLoc(48);
  site = await startTestServer({
    "/big-locs.xml": (_req, res) => res.end(sitemapIndex(children(100, "big").map((path) => site.url(path)))),
    ...Object.fromEntries(children(100, "big").map((path) => [path, (_req: unknown, res: ServerResponse) => res.end(big)])),
    "/thousand.xml": (_req, res) => res.end(sitemapIndex(children(1000, "child").map((path) => site.url(path)))),
    ...Object.fromEntries(children(1000, "child").map((path, i) => [path, (_req: unknown, res: ServerResponse) => res.end(urlset([`https://bounds.example.com/child/${i}`]))])),
    "/slow.xml": (_req, res) => trickle(res, "slow"),
    "/slow-2.xml": (_req, res) => trickle(res, "slow-2"),
    "/small.xml": (_req, res) => res.end(urlset(Array.from({ length: 5 }, (_, i) => `https://bounds.example.com/small/${i}`))),
    "/never.xml": (_req, res) => res.end(urlset(["https://bounds.example.com/never"])),
  });
  svc = await startTestService({ SITEMAP_ALLOW_PRIVATE_HOSTS: "true", REFRESH_POLL_MS: "100" });
});
afterAll(async () => {
  for (const res of trickles) res.destroy();
  await svc?.close();
  await site?.close();
});

async function queue(apiKey: string, sitemap: string): Promise<string> {
  const res = await svc.get("/v2/tracked", {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ sitemap }),
  });
  expect(res.status).toBe(202);
  return (await res.json()).import_id;
}
const state = async (apiKey: string, id: string) => (await svc.get(`/v2/imports/${id}`, { headers: { authorization: `Bearer ${apiKey}` } })).json();
const ended = (apiKey: string, id: string, timeoutMs = 20_000) =>
  until(`import ${id} to end`, () => state(apiKey, id), (s) => ["done", "failed", "cancelled"].includes(s.status), timeoutMs);

/** The highest RSS seen while `work` runs, sampled every 20 ms. */
async function peakRss<T>(work: () => Promise<T>): Promise<{ result: T; peak: number }> {
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  try {
    return { result: await work(), peak: Math.max(peak, process.memoryUsage().rss) };
  } finally {
    clearInterval(sampler);
  }
}

const MB = 1024 * 1024;

describe("an import's bounds", () => {
  it("drops each 48 MB <loc> as it streams, stops at 200 MiB read, and the service's memory stays within 300 MB of idle", async () => {
    const { apiKey } = await svc.account("business");
    const idle = process.memoryUsage().rss;
    const { result, peak } = await peakRss(async () => ended(apiKey, await queue(apiKey, site.url("/big-locs.xml"))));
    expect(result).toMatchObject({ status: "done", added: 0, stopped: "byte_limit" });
    expect(result.not_added.too_long).toBeGreaterThanOrEqual(3);
    expect(result.files).toBeLessThan(10);
    expect(peak - idle).toBeLessThan(300 * MB);
  });

  it("reads an index of 1,000 children up to 1,000 documents, adds what they list, and says it stopped at the file limit", async () => {
    const { apiKey } = await svc.account("business");
    const idle = process.memoryUsage().rss;
    const { result, peak } = await peakRss(async () => ended(apiKey, await queue(apiKey, site.url("/thousand.xml")), 25_000));
    expect(result).toMatchObject({ status: "done", files: 1000, urls_found: 999, added: 999, stopped: "file_limit" });
    expect(peak - idle).toBeLessThan(300 * MB);
  });

  it("cancels a running import: it stops reading within seconds and keeps what it added", async () => {
    const { apiKey } = await svc.account("business");
    const id = await queue(apiKey, site.url("/slow.xml"));
    await until("it to add some", () => state(apiKey, id), (s) => s.status === "running" && s.added > 0, 10_000);
    expect((await svc.get(`/v2/imports/${id}`, { method: "DELETE", headers: { authorization: `Bearer ${apiKey}` } })).status).toBe(204);
    const cancelled = await ended(apiKey, id, 10_000);
    expect(cancelled).toMatchObject({ status: "cancelled" });
    expect(cancelled.added).toBeGreaterThan(0);
    // Its worker let it go: the document is no longer being read.
    await until("the reader to go", async () => site.hits.filter((p) => p === "/slow.xml").length > 0 && !trickling("slow"), (gone) => gone, 10_000);
  });

  it("runs another account's small import at once beside a slow one", async () => {
    const slow = await svc.account("business");
    const small = await svc.account("business");
    const slowId = await queue(slow.apiKey, site.url("/slow-2.xml"));
    await until("the slow one to run", () => state(slow.apiKey, slowId), (s) => s.status === "running", 10_000);
    const queuedAt = Date.now();
    const smallId = await queue(small.apiKey, site.url("/small.xml"));
    expect(await ended(small.apiKey, smallId, 10_000)).toMatchObject({ status: "done", added: 5 });
    expect(Date.now() - queuedAt).toBeLessThan(5_000);
    expect((await state(slow.apiKey, slowId)).status).toBe("running");
    await svc.get(`/v2/imports/${slowId}`, { method: "DELETE", headers: { authorization: `Bearer ${slow.apiKey}` } });
    await ended(slow.apiKey, slowId, 10_000);
  });

  it("gives up on an import whose runs kept ending without an outcome", async () => {
    const { apiKey, email } = await svc.account("business");
    const { id: accountId } = await svc.prisma.account.findUniqueOrThrow({ where: { email } });
    // Three runs begun, the last one's worker gone (its lease ran out).
    const past = BigInt(Date.now() - 60_000);
    await svc.prisma.urlImport.create({
      data: { id: "given-up", accountId, kind: "sitemap", sourceUrl: site.url("/never.xml"), status: "running", attempts: 3, createdAt: past, updatedAt: past, leaseUntil: past, leaseToken: "dead" },
    });
    svc.runtime.imports!.notify();
    const gaveUp = await ended(apiKey, "given-up");
    expect(gaveUp).toMatchObject({ status: "failed", added: 0, attempts: 4, error: expect.stringMatching(/^Gave up after 3 attempts/) });
    expect(site.hits).not.toContain("/never.xml");
  });
});

const trickling = (prefix: string) => [...trickles].some((res) => !res.destroyed && (res.req.url ?? "").includes(prefix));
