import { describe, expect, it } from "vitest";
import { dailyChanges, dayTicks, hasValues, networkSeries, rangeDomain, totalSeries } from "./history-series.ts";
import type { HistoryAnswer } from "./types.ts";

const FACEBOOK_NULLS = { total_count: null, comment_count: null, reaction_count: null, share_count: null, comment_plugin_count: null };
const facebook = (total: number | null) =>
  total === null
    ? { status: "unavailable" as const, ...FACEBOOK_NULLS }
    : { status: "ok" as const, total_count: total, comment_count: 0, reaction_count: 0, share_count: total, comment_plugin_count: 0 };
const pinterest = (count: number | null) => (count === null ? { status: "unavailable" as const, count: null } : { status: "ok" as const, count });

const points: HistoryAnswer["points"] = [
  { t: "2025-01-01T00:00:00.000Z", networks: { facebook: facebook(10), pinterest: pinterest(1) } },
  { t: "2025-01-02T00:00:00.000Z", networks: { facebook: facebook(null), pinterest: pinterest(2) } },
  { t: "2025-01-03T00:00:00.000Z", networks: { facebook: facebook(12), pinterest: pinterest(null) } },
  { t: "2025-01-04T00:00:00.000Z", networks: { facebook: facebook(15), pinterest: pinterest(0) } },
];

describe("networkSeries", () => {
  it("keeps a point where the network did not report as a gap, not a zero", () => {
    expect(networkSeries(points, "facebook").map((p) => p.value)).toEqual([10, null, 12, 15]);
    expect(networkSeries(points, "pinterest").map((p) => p.value)).toEqual([1, 2, null, 0]);
  });

  it("plots a network's headline number: Reddit's score + comments", () => {
    const reddit = (score: number, comments: number) => ({ status: "ok" as const, score, comments, posts: 1 });
    const redditPoints: HistoryAnswer["points"] = [
      { t: "2025-01-01T00:00:00.000Z", networks: { reddit: reddit(10, 2) } },
      { t: "2025-01-02T00:00:00.000Z", networks: {} },
      { t: "2025-01-03T00:00:00.000Z", networks: { reddit: reddit(15, 4) } },
    ];
    expect(networkSeries(redditPoints, "reddit").map((p) => p.value)).toEqual([12, null, 19]);
  });

  it("reads the times as epoch milliseconds", () => {
    expect(networkSeries(points, "facebook")[0]!.t).toBe(Date.UTC(2025, 0, 1));
  });

  it("marks values with no known neighbour, which a line alone would not show", () => {
    expect(networkSeries(points, "facebook").map((p) => p.isolated)).toEqual([true, false, false, false]);
    expect(networkSeries(points, "pinterest").map((p) => p.isolated)).toEqual([false, false, false, true]);
    expect(networkSeries(points.slice(0, 1), "pinterest")[0]!.isolated).toBe(true);
  });
});

describe("totalSeries", () => {
  it("adds up the networks that reported at each point, a gap where none did", () => {
    expect(totalSeries(points, ["facebook", "pinterest"]).map((p) => p.value)).toEqual([11, 2, 12, 15]);
    expect(totalSeries(points, ["facebook"]).map((p) => p.value)).toEqual([10, null, 12, 15]);
    expect(totalSeries(points, ["facebook"]).map((p) => p.isolated)).toEqual([true, false, false, false]);
  });
});

describe("dailyChanges", () => {
  it("compares each day's last point with the day before's, over the networks known at both", () => {
    // Jan 2 has no Facebook and Jan 3 no Pinterest: each change counts only the network both days know.
    expect(dailyChanges(points, ["facebook", "pinterest"])).toEqual([
      { t: Date.UTC(2025, 0, 1), change: null },
      { t: Date.UTC(2025, 0, 2), change: 1 },
      { t: Date.UTC(2025, 0, 3), change: null },
      { t: Date.UTC(2025, 0, 4), change: 3 },
    ]);
  });

  it("takes the last of a day's hourly points, and leaves a day after a day without points without a change", () => {
    const hourly: HistoryAnswer["points"] = [
      { t: "2025-01-01T05:00:00.000Z", networks: { facebook: facebook(10) } },
      { t: "2025-01-01T23:00:00.000Z", networks: { facebook: facebook(14) } },
      { t: "2025-01-02T01:00:00.000Z", networks: { facebook: facebook(15) } },
      { t: "2025-01-02T20:00:00.000Z", networks: { facebook: facebook(13) } },
      { t: "2025-01-04T10:00:00.000Z", networks: { facebook: facebook(20) } },
    ];
    expect(dailyChanges(hourly, ["facebook"]).map((d) => d.change)).toEqual([null, -1, null]);
    expect(dailyChanges(hourly, ["facebook"]).map((d) => d.t)).toEqual([Date.UTC(2025, 0, 1), Date.UTC(2025, 0, 2), Date.UTC(2025, 0, 4)]);
  });
});

describe("hasValues", () => {
  it("is false for a network that never reported in the range", () => {
    expect(hasValues(networkSeries(points.slice(1, 2), "facebook"))).toBe(false);
    expect(hasValues(networkSeries(points, "facebook"))).toBe(true);
  });
});

describe("rangeDomain", () => {
  it("spans whole UTC days, the range's first to the end of today", () => {
    const now = Date.parse("2025-03-10T15:30:00Z");
    expect(rangeDomain(7, now)).toEqual([Date.parse("2025-03-04T00:00:00Z"), Date.parse("2025-03-11T00:00:00Z")]);
    expect(rangeDomain(30, now)[0]).toBe(Date.parse("2025-02-09T00:00:00Z"));
  });
});

describe("dayTicks", () => {
  const DAY = 86_400_000;
  const from = Date.parse("2025-03-04T00:00:00Z");

  it("marks every day of a week", () => {
    expect(dayTicks([from, from + 7 * DAY])).toEqual(Array.from({ length: 7 }, (_, i) => from + i * DAY));
  });

  it("marks every few days of a long range, at most as many as asked", () => {
    const ticks = dayTicks([from, from + 365 * DAY], 8);
    expect(ticks.length).toBeLessThanOrEqual(8);
    expect(ticks[0]).toBe(from);
    expect(ticks[1]! - ticks[0]!).toBe(46 * DAY);
  });
});
