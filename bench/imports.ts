/**
 * `npm run bench:imports`: what an import may cost the service, measured on `npm run start:api` (SQLite, its
 * own import worker) as a separate process, its RSS read from /proc every 20 ms:
 * 1. the document that once took the service down: a sitemap index of 100 gzipped sitemaps, each holding one
 *    48 MB `<loc>` (about 50 KB each on the wire);
 * 2. an index of 1,000 sitemaps of one URL each;
 * 3. another account's 5-URL import queued while a slow import (a sitemap trickling one URL every 100 ms)
 *    runs: how long it waits.
 * Each figure is printed with its bound; the run fails (exit 1) when RSS passes 300 MB above idle or the small
 * import waits over 10 s.
 */
import fs from "node:fs";
import type { ServerResponse } from "node:http";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { sitemapIndex, startTestServer, urlset } from "../test/support/document-server.ts";
import { freePort, getJson, log, run, runMain, sleep, startChild, stopChild, tempDir, TSX, waitForStatus } from "./support.ts";

const MB = 1024 * 1024;
const RSS_BOUND_MB = 300;
const WAIT_BOUND_MS = 10_000;

/** The resident memory of process `pid`, in bytes (Linux /proc). */
function rssOf(pid: number): number {
  const line = fs.readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmRSS:"));
  return Number(/(\d+)/.exec(line ?? "")?.[1] ?? 0) * 1024;
}

async function main(): Promise<number> {
  const dir = tempDir("bench-imports");
  const databaseUrl = `file:${path.join(dir, "bench.db")}`;
  const trickles = new Set<ServerResponse>();
  const big = gzipSync(`<urlset><url><loc>https://example.com/${"a".repeat(48 * MB)}</loc></url></urlset>`);
  // The red team's attribute attack: one element carrying many large attributes (sax kept them all).
  const attributes = gzipSync(`<urlset><url ${Array.from({ length: 1000 }, (_, i) => `a${i}="${"x".repeat(48 * 1024)}"`).join(" ")}><loc>https://bench.example.com/attrs</loc></url></urlset>`);
  const children = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `/${prefix}/${i}.xml`);
  const site = await startTestServer({
    "/big-locs.xml": (_req, res) => res.end(sitemapIndex(children(100, "big").map((p) => site.url(p)))),
    ...Object.fromEntries(children(100, "big").map((p) => [p, (_req: unknown, res: ServerResponse) => res.end(big)])),
    "/attributes.xml": (_req, res) => res.end(sitemapIndex(children(100, "attrs").map((p) => site.url(p)))),
    ...Object.fromEntries(children(100, "attrs").map((p) => [p, (_req: unknown, res: ServerResponse) => res.end(attributes)])),
    "/thousand.xml": (_req, res) => res.end(sitemapIndex(children(1000, "child").map((p) => site.url(p)))),
    ...Object.fromEntries(children(1000, "child").map((p, i) => [p, (_req: unknown, res: ServerResponse) => res.end(urlset([`https://bench.example.com/${i}`]))])),
    "/slow.xml": (_req, res) => {
      trickles.add(res);
      res.write("<urlset>");
      let i = 0;
      const timer = setInterval(() => res.write(`<url><loc>https://bench.example.com/slow/${i++}</loc></url>`), 100);
      res.on("close", () => clearInterval(timer));
    },
    "/small.xml": (_req, res) => res.end(urlset(Array.from({ length: 5 }, (_, i) => `https://bench.example.com/small/${i}`))),
  });
  log(`one gzipped 48 MB <loc>: ${big.length} bytes on the wire`);

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const service = startChild("api", process.execPath, ["--import", "tsx", "start/api.ts"], {
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: databaseUrl,
    SITEMAP_ALLOW_PRIVATE_HOSTS: "true",
    SHARECOUNT_NETWORKS: "sandbox",
    SHARECOUNT_DEMO: "false",
  });
  try {
    await waitForStatus(base, service);
    const key = async (email: string) => {
      const out = await run(TSX, ["service/admin/cli.ts", "account:create", "--email", email, "--plan", "business"], { DATABASE_URL: databaseUrl });
      return (JSON.parse(out.trim().split("\n").at(-1)!) as { apikey: string }).apikey;
    };
    const queue = async (apiKey: string, sitemap: string) => {
      const res = await fetch(`${base}/v2/tracked`, { method: "POST", headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" }, body: JSON.stringify({ sitemap }) });
      if (res.status !== 202) throw new Error(`queuing ${sitemap} answered ${res.status}: ${await res.text()}`);
      return ((await res.json()) as { import_id: string }).import_id;
    };
    const state = (apiKey: string, id: string) => getJson<{ status: string; [field: string]: unknown }>(`${base}/v2/imports/${id}`, { headers: { authorization: `Bearer ${apiKey}` } });
    const until = async (apiKey: string, id: string, done: (s: { status: string }) => boolean) => {
      for (;;) {
        const s = await state(apiKey, id);
        if (done(s)) return s;
        await sleep(50);
      }
    };
    const ended = (s: { status: string }) => ["done", "failed", "cancelled"].includes(s.status);

    /** Peak RSS of the service above what it held before, while `work` runs. */
    const peakAbove = async (work: () => Promise<unknown>) => {
      await sleep(500);
      const idle = rssOf(service.process.pid!);
      let peak = idle;
      const sampler = setInterval(() => (peak = Math.max(peak, rssOf(service.process.pid!))), 20);
      const started = performance.now();
      const result = await work();
      clearInterval(sampler);
      return { idle, aboveMb: (peak - idle) / MB, seconds: (performance.now() - started) / 1000, result };
    };

    let passed = true;
    for (const [name, document] of [["100 sitemaps of one 48 MB <loc>", "/big-locs.xml"], ["100 sitemaps of 1,000 attributes of 48 KB on one element", "/attributes.xml"], ["an index of 1,000 sitemaps", "/thousand.xml"]] as const) {
      const apiKey = await key(`${document.slice(1, -4)}@example.com`);
      const { idle, aboveMb, seconds, result } = await peakAbove(async () => until(apiKey, await queue(apiKey, site.url(document)), ended));
      const ok = aboveMb < RSS_BOUND_MB;
      passed &&= ok;
      log(`${name}: peak RSS ${aboveMb.toFixed(1)} MB above idle (${(idle / MB).toFixed(0)} MB), bound ${RSS_BOUND_MB} MB ${ok ? "ok" : "MISSED"}; ${seconds.toFixed(1)} s`);
      log(`  ended: ${JSON.stringify(result)}`);
    }

    const slowKey = await key("slow@example.com");
    const smallKey = await key("small@example.com");
    const slowId = await queue(slowKey, site.url("/slow.xml"));
    await until(slowKey, slowId, (s) => s.status === "running");
    const queuedAt = performance.now();
    const small = await until(smallKey, await queue(smallKey, site.url("/small.xml")), ended);
    const waited = performance.now() - queuedAt;
    const ok = waited < WAIT_BOUND_MS && small.status === "done";
    passed &&= ok;
    log(`a 5-URL import behind another account's slow one: done in ${(waited / 1000).toFixed(2)} s (bound ${WAIT_BOUND_MS / 1000} s) ${ok ? "ok" : "MISSED"}`);
    await fetch(`${base}/v2/imports/${slowId}`, { method: "DELETE", headers: { authorization: `Bearer ${slowKey}` } });
    return passed ? 0 : 1;
  } finally {
    for (const res of trickles) res.destroy();
    await stopChild(service);
    await site.close();
  }
}

await runMain(main);
