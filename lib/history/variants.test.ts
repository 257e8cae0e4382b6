import { describe, expect, it } from "vitest";
import { changeBetween, freshValues, totalOf } from "./observed.ts";
import { combine, formsOf, variantsOf } from "./variants.ts";

const fb = (total: number, share = 0) => ({ total_count: total, comment_count: 0, reaction_count: total - share, share_count: share, comment_plugin_count: 0 });

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
  });
});
