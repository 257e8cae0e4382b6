import { describe, expect, it } from "vitest";
import {
  formatClockTime,
  formatCount,
  formatDuration,
  formatNumber,
  formatPercent,
  formatTimeAgo,
  formatTimeUntil,
  parseStaleHeader,
  quotaLevel,
  quotaRatio,
} from "./format.ts";

const MIN = 60_000;
const HOUR = 60 * MIN;

describe("counts", () => {
  it("shows null as not reported, plainly different from a real zero", () => {
    expect(formatCount(null)).toBe("not reported");
    expect(formatCount(0)).toBe("0");
    expect(formatCount(1234567)).toBe("1,234,567");
  });

  it("groups thousands the same way on the server and in any browser", () => {
    expect(formatNumber(100000)).toBe("100,000");
  });
});

describe("quota", () => {
  it("is a ratio from 0 to 1; an allocation of 0 is used up", () => {
    expect(quotaRatio(0, 500)).toBe(0);
    expect(quotaRatio(250, 500)).toBe(0.5);
    expect(quotaRatio(600, 500)).toBe(1);
    expect(quotaRatio(0, 0)).toBe(1);
  });

  it("rounds the percentage down, so only a used-up quota says 100%", () => {
    expect(formatPercent(0)).toBe("0%");
    expect(formatPercent(0.00001)).toBe("<1%");
    expect(formatPercent(quotaRatio(99_999, 100_000))).toBe("99%");
    expect(formatPercent(1)).toBe("100%");
  });

  it("warns from 90% and is exhausted at 100%", () => {
    expect(quotaLevel(0, 500)).toBe("ok");
    expect(quotaLevel(449, 500)).toBe("ok");
    expect(quotaLevel(450, 500)).toBe("warning");
    expect(quotaLevel(499, 500)).toBe("warning");
    expect(quotaLevel(500, 500)).toBe("exhausted");
    expect(quotaLevel(0, 0)).toBe("exhausted");
  });
});

describe("time", () => {
  it("gives a duration in its two largest units, rounded down", () => {
    expect(formatDuration(3 * HOUR + 12 * MIN + 59_000)).toBe("3 h 12 min");
    expect(formatDuration(3 * HOUR)).toBe("3 h");
    expect(formatDuration(45 * MIN)).toBe("45 min");
    expect(formatDuration(59_999)).toBe("less than a minute");
    expect(formatDuration(26 * HOUR + 5 * MIN)).toBe("1 d 2 h");
    expect(formatDuration(48 * HOUR)).toBe("2 d");
  });

  it("says how long until a moment, and now once it has passed", () => {
    const now = Date.parse("2026-11-21T20:48:00Z");
    expect(formatTimeUntil(Date.parse("2026-11-22T00:00:00Z"), now)).toBe("in 3 h 12 min");
    expect(formatTimeUntil(now - 1, now)).toBe("now");
  });

  it("says how long ago, in one unit", () => {
    const now = Date.parse("2026-11-21T12:00:00Z");
    expect(formatTimeAgo(now - 30_000, now)).toBe("just now");
    expect(formatTimeAgo(now - 5 * MIN, now)).toBe("5 min ago");
    expect(formatTimeAgo(now - 3 * HOUR - 40 * MIN, now)).toBe("3 h ago");
    expect(formatTimeAgo(now - 30 * HOUR, now)).toBe("1 day ago");
    expect(formatTimeAgo(now - 72 * HOUR, now)).toBe("3 days ago");
  });

  it("shows a reset moment on the reader's own clock", () => {
    const reset = Date.parse("2026-11-22T00:00:00Z");
    expect(formatClockTime(reset, { locale: "en-GB", timeZone: "UTC" })).toBe("Sun 00:00");
    expect(formatClockTime(reset, { locale: "en-GB", timeZone: "Asia/Kolkata" })).toBe("Sun 05:30");
    expect(formatClockTime(reset, { locale: "en-GB", timeZone: "America/New_York" })).toBe("Sat 19:00");
  });
});

describe("stale header", () => {
  it("lists each network answered with its last known count and the count's age", () => {
    expect(parseStaleHeader(null)).toEqual([]);
    expect(parseStaleHeader("Facebook=3600")).toEqual([{ network: "Facebook", ageSeconds: 3600 }]);
    expect(parseStaleHeader("Facebook=3600, Pinterest=60")).toEqual([
      { network: "Facebook", ageSeconds: 3600 },
      { network: "Pinterest", ageSeconds: 60 },
    ]);
    expect(parseStaleHeader("garbage, Pinterest=x")).toEqual([]);
  });
});
