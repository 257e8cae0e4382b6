import { describe, expect, it } from "vitest";
import type { Usage } from "./api-schemas.ts";
import { formatUsageDate, lastDays, quotaShare, summarizeUsage, usageRangeFrom, usageRangeSchema } from "./usage.ts";

/** A report like the API's: `count` days ending on 2026-03-10, every day present. */
function report(count: number, queriesOn: (date: string) => number = () => 0): Usage {
  const usage: Usage = {};
  for (let i = count - 1; i >= 0; i--) {
    const date = new Date(Date.UTC(2026, 2, 10 - i)).toISOString().slice(0, 10);
    usage[date] = { date, queries: queriesOn(date), quota: 100_000 };
  }
  return usage;
}

describe("lastDays", () => {
  it("keeps the last N days, oldest first, ending today", () => {
    const days = lastDays(report(90), 7);
    expect(days.map((d) => d.date)).toEqual([
      "2026-03-04",
      "2026-03-05",
      "2026-03-06",
      "2026-03-07",
      "2026-03-08",
      "2026-03-09",
      "2026-03-10",
    ]);
  });

  it("sorts by date whatever order the object's keys come in", () => {
    const shuffled = Object.fromEntries(Object.entries(report(10)).reverse());
    expect(lastDays(shuffled, 3).map((d) => d.date)).toEqual(["2026-03-08", "2026-03-09", "2026-03-10"]);
  });

  it("returns every day when the report is shorter than the range", () => {
    expect(lastDays(report(5), 30)).toHaveLength(5);
  });

  it("starts on the account's first day: the days before it (quota 0, no queries) are not part of its history", () => {
    const young = report(90);
    for (const [date, day] of Object.entries(young)) if (date < "2026-03-06") young[date] = { ...day, quota: 0 };
    expect(lastDays(young, 90).map((d) => d.date)).toEqual(["2026-03-06", "2026-03-07", "2026-03-08", "2026-03-09", "2026-03-10"]);
    expect(lastDays(young, 3)).toHaveLength(3);
    const none = Object.fromEntries(Object.entries(report(5)).map(([date, day]) => [date, { ...day, quota: 0 }]));
    expect(lastDays(none, 7)).toEqual([]);
  });

  it("copies only the day's numbers", () => {
    const usage = { "2026-03-10": { date: "2026-03-10", queries: 3, quota: 500, extra: true } } as Usage;
    expect(lastDays(usage, 7)).toEqual([{ date: "2026-03-10", queries: 3, quota: 500 }]);
  });
});

describe("the range in the URL", () => {
  it.each([
    ["7", 7],
    ["30", 30],
    ["90", 90],
    [null, 30],
    [undefined, 30],
    ["", 30],
    ["14", 30],
    ["7x", 30],
  ])("?days=%s shows %i days", (param, expected) => {
    expect(usageRangeFrom(param)).toBe(expected);
  });

  it("the route accepts only the offered ranges, 30 by default", () => {
    expect(usageRangeSchema.parse({})).toEqual({ days: 30 });
    expect(usageRangeSchema.parse({ days: "90" })).toEqual({ days: 90 });
    for (const days of ["14", "abc", "", "7.5"]) {
      const result = usageRangeSchema.safeParse({ days });
      expect(result.success, days).toBe(false);
      expect(result.error?.issues[0]?.message).toBe("days must be one of 7, 30, 90");
    }
  });
});

describe("quotaShare", () => {
  it("is the share of the day's quota used", () => {
    expect(quotaShare({ queries: 450, quota: 500 })).toBe(0.9);
    expect(quotaShare({ queries: 0, quota: 500 })).toBe(0);
  });

  it("is null for a day without a quota (before the account existed)", () => {
    expect(quotaShare({ queries: 0, quota: 0 })).toBeNull();
  });
});

describe("summarizeUsage", () => {
  it("totals the range and finds the busiest day (the latest of equals)", () => {
    const days = lastDays(report(5, (date) => ({ "2026-03-07": 4, "2026-03-09": 4, "2026-03-10": 1 })[date] ?? 0), 5);
    expect(summarizeUsage(days)).toEqual({ total: 9, busiest: { date: "2026-03-09", queries: 4, quota: 100_000 } });
  });

  it("has no busiest day when there were no queries", () => {
    expect(summarizeUsage(lastDays(report(7), 7))).toEqual({ total: 0, busiest: null });
  });
});

describe("formatUsageDate", () => {
  it("shows the calendar date whatever the reader's time zone", () => {
    expect(formatUsageDate("2026-03-09", "short")).toBe("Mar 9");
    expect(formatUsageDate("2026-03-09", "medium")).toBe("Mar 9, 2026");
    expect(formatUsageDate("2026-03-09", "long")).toBe("Mon, Mar 9, 2026");
  });
});
