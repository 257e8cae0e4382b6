import { describe, it, expect } from "vitest";
import { deriveMoreCounts } from "../sandbox/derive-counts.ts";
import { HACKERNEWS_GARBAGE_BODIES } from "../sandbox/hackernews.ts";
import { useUpstreamSandbox } from "../../test/support/upstream-cases.ts";
import { createHackerNewsAdapter, type HackerNewsAdapterOptions } from "./hackernews.ts";

const hn = useUpstreamSandbox<HackerNewsAdapterOptions>({
  network: "hackernews",
  twinUrl: "hackerNewsUrl",
  create: createHackerNewsAdapter,
  garbageBodies: HACKERNEWS_GARBAGE_BODIES,
});
const { fetchCount, stats, twinUrl: baseUrl } = hn;

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
  hn.commonCases({
    success: {
      name: "counts only the hits whose URL is the URL, the same on every call, flagged as sandbox data",
      url: "https://example.com/story?id=7",
      before: async (url) => {
        const search = await (await fetch(`${baseUrl()}/search?tags=story&restrictSearchableAttributes=url&query=${encodeURIComponent(url)}`)).json();
        expect(search.hits.length).toBeGreaterThan(expected(url).stories);
      },
      value: expected,
    },
    none: { name: "reports no hits as a real zero", value: { points: 0, comments: 0, stories: 0 } },
  });

  it("counts a story whatever the spelling HN shows (scheme, www., trailing slash)", async () => {
    const url = Array.from({ length: 300 }, (_, i) => `https://example.com/three/${i}`).find((u) => deriveMoreCounts(u).hackernews.length === 3)!;
    const search = await (await fetch(`${baseUrl()}/search?query=${encodeURIComponent(url)}`)).json();
    const spellings = new Set(search.hits.slice(0, 3).map((hit: { url: string }) => hit.url));
    expect(spellings.size).toBe(3);
    expect(await fetchCount(url)).toMatchObject({ ok: true, value: { ...expected(url), stories: 3 } });
  });

  it("fails on a URL no story can have, without asking", async () => {
    expect(await fetchCount("ftp://example.com/")).toMatchObject({ ok: false, failure: "failed" });
    expect((await stats()).hackernews.calls).toBe(0);
  });
});
