import { describe, it, expect } from "vitest";
import type { MoreSandboxStats } from "../sandbox/control.ts";
import { deriveMoreCounts } from "../sandbox/derive-counts.ts";
import { HACKERNEWS_GARBAGE_BODIES, type HackerNewsMode } from "../sandbox/hackernews.ts";
import { moreTwinUrls, startSandbox } from "../sandbox/sandbox.ts";
import { useSandbox } from "../../test/support/sandbox.ts";
import { createHackerNewsAdapter, type HackerNewsAdapterOptions } from "./hackernews.ts";

const sandbox = useSandbox();

const setMode = (mode: HackerNewsMode) => sandbox.control("/__sandbox/more/knobs", "PUT", { hackernews: { mode } });
const stats = async () => (await (await fetch(`${sandbox.origin}/__sandbox/more/stats`)).json()) as MoreSandboxStats;
const baseUrl = () => moreTwinUrls(sandbox.origin).hackerNewsUrl;
const fetchCount = (url: string, options: Partial<HackerNewsAdapterOptions> = {}) =>
  createHackerNewsAdapter({ baseUrl: baseUrl(), timeoutMs: 2000, ...options }).fetchCount(url, new AbortController().signal);

/** What the twin's own stories of `url` add up to (its near-misses excluded). */
function expected(url: string) {
  const stories = deriveMoreCounts(url).hackernews;
  return {
    points: stories.reduce((sum, s) => sum + s.points, 0),
    comments: stories.reduce((sum, s) => sum + s.num_comments, 0),
    stories: stories.length,
  };
}

describe("Hacker News adapter against the sandbox", () => {
  it("is named hackernews", () => {
    expect(createHackerNewsAdapter({ baseUrl: "http://127.0.0.1:1", timeoutMs: 1 }).name).toBe("hackernews");
  });

  it("counts only the hits whose URL is the URL, the same on every call, flagged as sandbox data", async () => {
    const url = "https://example.com/story?id=7";
    const search = await (await fetch(`${baseUrl()}/search?tags=story&restrictSearchableAttributes=url&query=${encodeURIComponent(url)}`)).json();
    expect(search.hits.length).toBeGreaterThan(expected(url).stories);
    const first = await fetchCount(url);
    expect(first).toEqual({ ok: true, value: expected(url), sandbox: true });
    expect(await fetchCount(url)).toEqual(first);
  });

  it("counts a story whatever the spelling HN shows (scheme, www., trailing slash)", async () => {
    const url = Array.from({ length: 300 }, (_, i) => `https://example.com/three/${i}`).find((u) => deriveMoreCounts(u).hackernews.length === 3)!;
    const search = await (await fetch(`${baseUrl()}/search?query=${encodeURIComponent(url)}`)).json();
    const spellings = new Set(search.hits.slice(0, 3).map((hit: { url: string }) => hit.url));
    expect(spellings.size).toBe(3);
    expect(await fetchCount(url)).toMatchObject({ ok: true, value: { ...expected(url), stories: 3 } });
  });

  it("reports no hits as a real zero", async () => {
    await setMode("none");
    expect(await fetchCount("https://example.com/")).toEqual({ ok: true, value: { points: 0, comments: 0, stories: 0 }, sandbox: true });
  });

  it("fails on a URL no story can have, without asking", async () => {
    expect(await fetchCount("ftp://example.com/")).toMatchObject({ ok: false, failure: "failed" });
    expect((await stats()).hackernews.calls).toBe(0);
  });

  it("classifies every garbage answer as failed", async () => {
    await setMode("garbage");
    const seen = new Set<number>();
    for (let i = 0; seen.size < HACKERNEWS_GARBAGE_BODIES.length && i < 200; i++) {
      const url = `https://example.com/garbage/${i}`;
      const variant = deriveMoreCounts(url).variant % HACKERNEWS_GARBAGE_BODIES.length;
      if (seen.has(variant)) continue;
      seen.add(variant);
      expect(await fetchCount(url)).toMatchObject({ ok: false, failure: "failed", sandbox: true });
    }
    expect(seen.size).toBe(HACKERNEWS_GARBAGE_BODIES.length);
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
    expect(await fetchCount("https://example.com/", { baseUrl: closed.hackerNewsUrl })).toMatchObject({ ok: false, failure: "failed", sandbox: false });
  });

  it("makes one upstream call per fetch", async () => {
    await Promise.all([fetchCount("https://example.com/1"), fetchCount("https://example.com/1"), fetchCount("https://example.com/2")]);
    expect((await stats()).hackernews).toEqual({ calls: 3, byUrl: { "https://example.com/1": 2, "https://example.com/2": 1 } });
  });
});
