import { describe, expect, it } from "vitest";
import {
  customRangeProblem,
  describeRange,
  formatUsageDate,
  fromAccountStart,
  quotaShare,
  rangeDays,
  summarizeUsage,
  usageRangeFrom,
  usageRangeParams,
  usageRouteSchema,
} from "./usage.ts";

const none = { quota: 0, whitelist: 0, invalid: 0 };

/** Days as GET /v2/usage answers them: `count` days ending on 2026-03-10, every day present. */
function apiDays(count: number, on: (day: string) => Partial<{ served: number; refused: typeof none; quota: number }> = () => ({})) {
  return Array.from({ length: count }, (_, i) => {
    const day = new Date(Date.UTC(2026, 2, 10 - (count - 1 - i))).toISOString().slice(0, 10);
    return { day, served: 0, refused: none, quota: 100_000, ...on(day) };
  });
}

describe("fromAccountStart", () => {
  it("keeps every day, oldest first, whatever order the API's come in", () => {
    const days = fromAccountStart(apiDays(3).reverse());
    expect(days.map((d) => d.date)).toEqual(["2026-03-08", "2026-03-09", "2026-03-10"]);
    expect(days[0]).toEqual({ date: "2026-03-08", served: 0, refused: none, quota: 100_000 });
  });

  it("starts on the account's first day: the days before it (quota 0, nothing served or refused) are not its history", () => {
    const young = apiDays(10, (day) => (day < "2026-03-06" ? { quota: 0 } : {}));
    expect(fromAccountStart(young).map((d) => d.date)).toEqual(["2026-03-06", "2026-03-07", "2026-03-08", "2026-03-09", "2026-03-10"]);
    expect(fromAccountStart(apiDays(5, () => ({ quota: 0 })))).toEqual([]);
    // A refusal counts as the account's: that day is kept.
    const refusedFirst = apiDays(5, (day) => (day === "2026-03-07" ? { quota: 0, refused: { ...none, invalid: 1 } } : day < "2026-03-09" ? { quota: 0 } : {}));
    expect(fromAccountStart(refusedFirst)[0]!.date).toBe("2026-03-07");
  });
});

describe("the range in the URL", () => {
  const params = (query: string) => new URLSearchParams(query);

  it.each([
    ["days=7", { days: 7 }],
    ["days=90", { days: 90 }],
    ["", { days: 30 }],
    ["days=14", { days: 30 }],
    ["days=7x", { days: 30 }],
    ["from=2026-01-01&to=2026-01-31", { from: "2026-01-01", to: "2026-01-31" }],
    ["from=2026-01-01&to=2026-01-31&days=7", { from: "2026-01-01", to: "2026-01-31" }],
    ["from=2026-02-01&to=2026-01-31&days=7", { days: 7 }],
    ["from=2026-01-01", { days: 30 }],
    ["from=2024-01-01&to=2025-01-01", { days: 30 }],
  ])("?%s shows %o", (query, expected) => {
    expect(usageRangeFrom(params(query))).toEqual(expected);
  });

  it("writes a range back as the params it is read from", () => {
    for (const range of [{ days: 7 as const }, { from: "2026-01-01", to: "2026-01-31" }]) {
      expect(usageRangeFrom(params(new URLSearchParams(usageRangeParams(range)).toString()))).toEqual(range);
    }
  });

  it("ends a preset on today and keeps a custom range as it is", () => {
    expect(rangeDays({ days: 7 }, "2026-03-10")).toEqual({ from: "2026-03-04", to: "2026-03-10" });
    expect(rangeDays({ days: 90 }, "2026-03-10")).toEqual({ from: "2025-12-11", to: "2026-03-10" });
    expect(rangeDays({ from: "2025-01-01", to: "2025-02-01" }, "2026-03-10")).toEqual({ from: "2025-01-01", to: "2025-02-01" });
  });
});

describe("the dashboard route's query", () => {
  it("takes a preset (30 by default) or a custom range the API accepts", () => {
    expect(usageRouteSchema.parse({})).toEqual({ days: 30 });
    expect(usageRouteSchema.parse({ days: "90" })).toEqual({ days: 90 });
    expect(usageRouteSchema.parse({ from: "2024-01-01", to: "2024-12-31" })).toEqual({ from: "2024-01-01", to: "2024-12-31" });
  });

  it.each([
    [{ days: "14" }, "days must be one of 7, 30, 90"],
    [{ from: "2026-01-01" }, "Enter an end date."],
    [{ from: "2026-02-30", to: "2026-03-01" }, "Enter a start date."],
    [{ from: "2026-03-02", to: "2026-03-01" }, "The end date must be on or after the start date."],
    [{ from: "2024-01-01", to: "2025-01-01" }, "A range spans at most 366 days."],
  ])("refuses %o: %s", (query, message) => {
    const result = usageRouteSchema.safeParse(query);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(message);
  });

  it("names the field a custom range's problem is at", () => {
    expect(customRangeProblem("", "2026-01-01")?.field).toBe("from");
    expect(customRangeProblem("2026-01-02", "2026-01-01")?.field).toBe("to");
    expect(customRangeProblem("2026-01-01", "2026-01-01")).toBeNull();
  });
});

describe("quotaShare", () => {
  it("is the share of the day's quota served, and null for a day without a quota", () => {
    expect(quotaShare({ served: 450, quota: 500 })).toBe(0.9);
    expect(quotaShare({ served: 0, quota: 500 })).toBe(0);
    expect(quotaShare({ served: 0, quota: 0 })).toBeNull();
  });
});

describe("summarizeUsage", () => {
  it("totals served and refused by reason, and finds the day with the most requests (the latest of equals)", () => {
    const days = fromAccountStart(
      apiDays(5, (day) => ({
        "2026-03-07": { served: 4 },
        "2026-03-08": { served: 1, refused: { quota: 2, whitelist: 1, invalid: 0 } },
        "2026-03-10": { served: 1, refused: { quota: 0, whitelist: 0, invalid: 1 } },
      })[day] ?? {}),
    );
    const summary = summarizeUsage(days);
    expect(summary).toMatchObject({ served: 6, refused: { quota: 2, whitelist: 1, invalid: 1 } });
    expect(summary.busiest?.date).toBe("2026-03-08");
  });

  it("has no busiest day when nothing was served or refused", () => {
    expect(summarizeUsage(fromAccountStart(apiDays(7)))).toEqual({ served: 0, refused: none, busiest: null });
  });
});

describe("dates for people", () => {
  it("shows the calendar date whatever the reader's time zone", () => {
    expect(formatUsageDate("2026-03-09", "short")).toBe("Mar 9");
    expect(formatUsageDate("2026-03-09", "medium")).toBe("Mar 9, 2026");
    expect(formatUsageDate("2026-03-09", "long")).toBe("Mon, Mar 9, 2026");
  });

  it("describes a range", () => {
    expect(describeRange({ days: 7 })).toBe("last 7 days");
    expect(describeRange({ from: "2026-03-01", to: "2026-03-31" })).toBe("Mar 1, 2026 – Mar 31, 2026");
  });
});
