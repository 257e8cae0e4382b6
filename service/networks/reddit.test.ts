import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import type { MoreSandboxStats } from "../sandbox/control.ts";
import { deriveMoreCounts } from "../sandbox/derive-counts.ts";
import { REDDIT_GARBAGE_BODIES, type RedditMode } from "../sandbox/reddit.ts";
import { moreTwinUrls, startSandbox } from "../sandbox/sandbox.ts";
import { useSandbox } from "../../test/support/sandbox.ts";
import { createRedditAdapter, DEFAULT_REDDIT_USER_AGENT, type RedditAdapterOptions } from "./reddit.ts";

const sandbox = useSandbox();

const setMode = (mode: RedditMode) => sandbox.control("/__sandbox/more/knobs", "PUT", { reddit: { mode } });
const stats = async () => (await (await fetch(`${sandbox.origin}/__sandbox/more/stats`)).json()) as MoreSandboxStats;
const fetchCount = (url: string, options: Partial<RedditAdapterOptions> = {}) =>
  createRedditAdapter({ baseUrl: moreTwinUrls(sandbox.origin).redditUrl, timeoutMs: 2000, ...options }).fetchCount(
    url,
    new AbortController().signal,
  );

/** What the twin's submissions of `url` add up to. */
function expected(url: string) {
  const submissions = deriveMoreCounts(url).reddit;
  return {
    score: submissions.reduce((sum, s) => sum + s.score, 0),
    comments: submissions.reduce((sum, s) => sum + s.num_comments, 0),
    posts: submissions.length,
  };
}

describe("Reddit adapter against the sandbox", () => {
  it("is named reddit", () => {
    expect(createRedditAdapter({ baseUrl: "http://127.0.0.1:1", timeoutMs: 1 }).name).toBe("reddit");
  });

  it("sums the URL's submissions, the same on every call, flagged as sandbox data", async () => {
    const url = "https://example.com/post?a=1&b=2";
    const first = await fetchCount(url);
    expect(first).toEqual({ ok: true, value: expected(url), sandbox: true });
    expect(await fetchCount(url)).toEqual(first);
  });

  it("sums several submissions, a negative score included", async () => {
    const urls = Array.from({ length: 300 }, (_, i) => `https://example.com/many/${i}`);
    const several = urls.find((u) => deriveMoreCounts(u).reddit.length === 3)!;
    const negative = urls.find((u) => deriveMoreCounts(u).reddit.some((s) => s.score < 0))!;
    for (const url of [several, negative]) expect(await fetchCount(url)).toMatchObject({ ok: true, value: expected(url) });
  });

  it("reports no submission as a real zero", async () => {
    await setMode("none");
    expect(await fetchCount("https://example.com/")).toEqual({ ok: true, value: { score: 0, comments: 0, posts: 0 }, sandbox: true });
  });

  it("classifies every garbage answer as failed", async () => {
    await setMode("garbage");
    const seen = new Set<number>();
    for (let i = 0; seen.size < REDDIT_GARBAGE_BODIES.length && i < 200; i++) {
      const url = `https://example.com/garbage/${i}`;
      const variant = deriveMoreCounts(url).variant % REDDIT_GARBAGE_BODIES.length;
      if (seen.has(variant)) continue;
      seen.add(variant);
      expect(await fetchCount(url)).toMatchObject({ ok: false, failure: "failed", sandbox: true });
    }
    expect(seen.size).toBe(REDDIT_GARBAGE_BODIES.length);
  });

  it("classifies 500 as failed", async () => {
    await setMode("fail");
    expect(await fetchCount("https://example.com/")).toEqual({ ok: false, failure: "failed", detail: "HTTP 500", sandbox: true });
  });

  it("classifies 429 as throttled, carrying Retry-After when given", async () => {
    await setMode("throttle");
    expect(await fetchCount("https://example.com/")).toMatchObject({ ok: false, failure: "throttled", retryAfterMs: 30_000 });
    await setMode("429");
    const bare = await fetchCount("https://example.com/");
    expect(bare).toMatchObject({ ok: false, failure: "throttled" });
    expect(bare).not.toHaveProperty("retryAfterMs");
  });

  it("times out on a hanging upstream", async () => {
    await setMode("hang");
    const started = performance.now();
    expect(await fetchCount("https://example.com/", { timeoutMs: 200 })).toMatchObject({ ok: false, failure: "timeout" });
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it("fails on a transport error", async () => {
    const closed = await startSandbox();
    await closed.close();
    expect(await fetchCount("https://example.com/", { baseUrl: closed.redditUrl })).toMatchObject({ ok: false, failure: "failed", sandbox: false });
  });

  it("makes one upstream call per fetch", async () => {
    await Promise.all([fetchCount("https://example.com/1"), fetchCount("https://example.com/1"), fetchCount("https://example.com/2")]);
    const { reddit } = await stats();
    expect(reddit).toEqual({ calls: 3, byUrl: { "https://example.com/1": 2, "https://example.com/2": 1 } });
  });
});

describe("Reddit adapter's request", () => {
  let stub: Server;
  let baseUrl: string;
  let seen: { url: string; headers: IncomingHttpHeaders } | undefined;
  let body = '{"kind":"Listing","data":{"children":[]}}';

  beforeAll(async () => {
    stub = createServer((req, res) => {
      seen = { url: req.url ?? "", headers: req.headers };
      res.writeHead(200, { "content-type": "application/json" }).end(body);
    });
    await new Promise<void>((resolve) => stub.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    stub.closeAllConnections();
    await new Promise((resolve) => stub.close(resolve));
  });

  it("asks for a full listing of the URL with a descriptive user agent", async () => {
    const url = "https://example.com/a b?x=1&y=2";
    expect(await fetchCount(url, { baseUrl })).toMatchObject({ ok: true, sandbox: false });
    expect(seen!.url).toBe(`/api/info.json?url=${encodeURIComponent(url)}&limit=100`);
    expect(seen!.headers["user-agent"]).toBe(DEFAULT_REDDIT_USER_AGENT);
    await fetchCount(url, { baseUrl, userAgent: "server:my-counts:1.0 (by /u/someone)" });
    expect(seen!.headers["user-agent"]).toBe("server:my-counts:1.0 (by /u/someone)");
  });

  it("counts only submissions (t3) among the children", async () => {
    const child = (kind: string, data: unknown) => ({ kind, data });
    body = JSON.stringify({
      kind: "Listing",
      data: { children: [child("t3", { score: 5, num_comments: 2 }), child("t1", { body: "a comment" }), child("t3", { score: -1, num_comments: 0 })] },
    });
    expect(await fetchCount("https://example.com/", { baseUrl })).toEqual({ ok: true, value: { score: 4, comments: 2, posts: 2 }, sandbox: false });
  });
});
