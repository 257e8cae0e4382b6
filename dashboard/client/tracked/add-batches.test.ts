import { describe, expect, it } from "vitest";
import { NOTHING_ADDED, sumTrackAnswers, trackBatches } from "./add-batches.ts";

const urls = (n: number) => Array.from({ length: n }, (_, i) => `https://example.com/${i}`);

describe("trackBatches", () => {
  it("sends at most 10,000 URLs a request, in order", () => {
    const list = urls(25_000);
    const batches = trackBatches(list);
    expect(batches.map((b) => b.length)).toEqual([10_000, 10_000, 5_000]);
    expect(batches.flat()).toEqual(list);
  });

  it("makes no request for no URLs", () => {
    expect(trackBatches([])).toEqual([]);
  });

  it("starts a new request before the body gets too large for the API", () => {
    const long = Array.from({ length: 10 }, (_, i) => `https://example.com/${String(i).padStart(2, "0")}${"x".repeat(77)}`);
    // Each URL is 100 bytes, 103 with its quotes and comma.
    expect(trackBatches(long, 10_000, 310).map((b) => b.length)).toEqual([3, 3, 3, 1]);
  });

  it("counts bytes, not characters", () => {
    expect(trackBatches(["https://example.com/é", "https://example.com/é"], 10, 49).length).toBe(2);
  });
});

describe("sumTrackAnswers", () => {
  it("adds up the requests' answers", () => {
    const total = [
      { added: 3, already_tracked: 1, invalid: 0, over_limit: 0, over_quota: 0 },
      { added: 2, already_tracked: 0, invalid: 4, over_limit: 5, over_quota: 6 },
    ].reduce(sumTrackAnswers, NOTHING_ADDED);
    expect(total).toEqual({ added: 5, already_tracked: 1, invalid: 4, over_limit: 5, over_quota: 6 });
  });
});
