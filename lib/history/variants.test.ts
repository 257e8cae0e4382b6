import { describe, expect, it } from "vitest";
import { changeBetween, freshValues, headlines, isEmpty, onlyNetworks, totalOf, type ObservedValues } from "./observed.ts";
import { combine, formsOf, variantsOf } from "./variants.ts";

const fb = (total: number, share = 0) => ({ total_count: total, comment_count: 0, reaction_count: total - share, share_count: share, comment_plugin_count: 0 });
const reddit = (score: number, comments = 0, posts = 1) => ({ score, comments, posts });
const hn = (points: number, comments = 0, stories = 1) => ({ points, comments, stories });
const bsky = (likes: number, reposts = 0) => ({ likes, reposts, replies: 1, quotes: 0, posts: 1 });
/** An observation of all eight networks. */
const all: ObservedValues = {
  Facebook: fb(10),
  Pinterest: 2,
  reddit: reddit(30, 4, 2),
  hackernews: hn(50, 6),
  bluesky: { likes: 7, reposts: 3, replies: 2, quotes: 1, posts: 9 },
  vk: { count: 5 },
  ok: { count: 11 },
  tumblr: { notes: 13 },
};

describe("URL variants", () => {
  it("are the four scheme and www forms, the URL first; an IP address has only the two schemes", () => {
    expect(variantsOf("https://www.example.com/a?b=1")).toEqual([
      "https://www.example.com/a?b=1",
      "https://example.com/a?b=1",
      "http://example.com/a?b=1",
      "http://www.example.com/a?b=1",
    ]);
    expect(variantsOf("http://example.com/")).toEqual(["http://example.com/", "https://example.com/", "https://www.example.com/", "http://www.example.com/"]);
    expect(variantsOf("https://93.184.216.34/x")).toEqual(["https://93.184.216.34/x", "http://93.184.216.34/x"]);
  });

  it("an account counts the URL, its variants if it counts them, and its aliases, each once", () => {
    expect(formsOf("https://example.com/a", { countVariants: false, aliases: ["https://old.example.com/a", "https://example.com/a"] })).toEqual([
      "https://example.com/a",
      "https://old.example.com/a",
    ]);
    expect(formsOf("https://example.com/a", { countVariants: true, aliases: [] })).toHaveLength(4);
  });
});

describe("the combined count", () => {
  it("sums the forms, counting identical Facebook engagement once and Pinterest as is", () => {
    const combined = combine([
      { Facebook: fb(10, 3), Pinterest: 1 },
      { Facebook: fb(10, 3), Pinterest: 1 },
      { Facebook: fb(10, 4), Pinterest: 2 },
      { Pinterest: 5 },
      {},
    ]);
    expect(combined).toEqual({ Facebook: { total_count: 20, comment_count: 0, reaction_count: 13, share_count: 7, comment_plugin_count: 0 }, Pinterest: 9 });
    expect(totalOf(combined)).toBe(29);
    expect(combine([{}, {}])).toEqual({});
    expect(totalOf({})).toBeNull();
  });

  it("sums Reddit, VK, OK.ru and Tumblr field by field, even when two forms report the same", () => {
    const combined = combine([
      { reddit: reddit(5, 2), vk: { count: 3 }, ok: { count: 1 }, tumblr: { notes: 4 } },
      { reddit: reddit(5, 2), vk: { count: 3 }, ok: { count: 1 }, tumblr: { notes: 4 } },
      { reddit: reddit(-1, 0, 1), tumblr: { notes: 0 } },
      {},
    ]);
    expect(combined).toEqual({ reddit: { score: 9, comments: 4, posts: 3 }, vk: { count: 6 }, ok: { count: 2 }, tumblr: { notes: 8 } });
  });

  it("counts identical Hacker News and Bluesky values once (one search found the same items), and sums distinct ones", () => {
    const combined = combine([
      { hackernews: hn(40, 10), bluesky: bsky(3, 1) },
      { hackernews: hn(40, 10), bluesky: bsky(3, 1) },
      { hackernews: hn(40, 11), bluesky: bsky(3, 2) },
      { hackernews: hn(2, 0) },
    ]);
    expect(combined).toEqual({
      hackernews: { points: 82, comments: 21, stories: 3 },
      bluesky: { likes: 6, reposts: 3, replies: 2, quotes: 0, posts: 2 },
    });
    // Two forms whose numbers differ in one field only are two different findings.
    expect(combine([{ hackernews: hn(1, 1, 1) }, { hackernews: hn(1, 1, 2) }])).toEqual({ hackernews: hn(2, 2, 3) });
  });

  it("combines each network by its own rule in one refresh", () => {
    expect(combine([all, all])).toEqual({
      Facebook: fb(10),
      Pinterest: 4,
      reddit: { score: 60, comments: 8, posts: 4 },
      hackernews: all.hackernews,
      bluesky: all.bluesky,
      vk: { count: 10 },
      ok: { count: 22 },
      tumblr: { notes: 26 },
    });
  });
});

describe("headline numbers", () => {
  it("are each network's engagement, without the count of posts or stories it was found in", () => {
    expect(headlines(all)).toEqual({ Facebook: 10, Pinterest: 2, reddit: 34, hackernews: 56, bluesky: 13, vk: 5, ok: 11, tumblr: 13 });
    expect(totalOf(all)).toBe(10 + 2 + 34 + 56 + 13 + 5 + 11 + 13);
    expect(totalOf({ tumblr: { notes: 0 } })).toBe(0);
    expect(isEmpty({ ok: { count: 0 } })).toBe(false);
    expect(isEmpty({})).toBe(true);
  });
});

describe("an account's networks", () => {
  it("keep only the values of the networks it shows, by id, for its totals", () => {
    const values: ObservedValues = { Pinterest: 3, reddit: { score: 5, comments: 2, posts: 1 }, vk: { count: 7 } };
    expect(onlyNetworks(values, ["pinterest", "reddit", "tumblr"])).toEqual({ Pinterest: 3, reddit: { score: 5, comments: 2, posts: 1 } });
    expect(totalOf(onlyNetworks(values, ["pinterest", "reddit"]))).toBe(10);
    expect(onlyNetworks(values, null)).toBe(values);
    expect(totalOf(onlyNetworks(values, ["facebook"]))).toBeNull();
  });
});

describe("observations and changes", () => {
  it("keep only what was fetched fresh: a stale or failed network is not observed", () => {
    const counts = { Facebook: { ...fb(4), og_object: null }, Pinterest: 2 };
    expect(freshValues(counts, [])).toEqual({ Facebook: fb(4), Pinterest: 2 });
    expect(freshValues(counts, ["Pinterest"])).toEqual({ Facebook: fb(4) });
    expect(freshValues({ Facebook: null, Pinterest: null }, [])).toEqual({});
  });

  it("sum each network's change over the networks known at both ends", () => {
    expect(changeBetween({ Facebook: fb(10), Pinterest: 1 }, { Facebook: fb(15), Pinterest: 4 })).toBe(8);
    expect(changeBetween({ Facebook: fb(10) }, { Facebook: fb(15), Pinterest: 400 })).toBe(5);
    expect(changeBetween({ Pinterest: 3 }, { Facebook: fb(15) })).toBeNull();
    expect(changeBetween({ Facebook: fb(15) }, { Facebook: fb(12) })).toBe(-3);
    expect(changeBetween({ reddit: reddit(10, 2), hackernews: hn(5) }, { reddit: reddit(12, 3), bluesky: bsky(4), vk: { count: 1 } })).toBe(3);
    expect(changeBetween({ Facebook: fb(1), tumblr: { notes: 3 }, ok: { count: 2 } }, all)).toBe(9 + 10 + 9);
  });
});
