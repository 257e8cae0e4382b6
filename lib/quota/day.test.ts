import { describe, expect, it } from "vitest";
import { addDays, nextResetAt, quotaDay } from "./day.ts";
import { QuotaClock } from "./clock.ts";

describe("quota day", () => {
  it("is the calendar date in the quota time zone", () => {
    const at = Date.parse("2026-03-10T02:30:00Z");
    expect(quotaDay(at, "UTC")).toBe("2026-03-10");
    expect(quotaDay(at, "America/New_York")).toBe("2026-03-09");
    expect(quotaDay(at, "Asia/Kolkata")).toBe("2026-03-10");
    expect(quotaDay(Date.parse("2026-03-09T10:30:00Z"), "Pacific/Kiritimati")).toBe("2026-03-10");
  });

  it("resets at the next local midnight, also for half-hour offsets and across DST changes", () => {
    expect(nextResetAt(Date.parse("2026-03-10T02:30:00Z"), "UTC")).toBe(Date.parse("2026-03-11T00:00:00Z"));
    expect(nextResetAt(Date.parse("2026-03-10T02:30:00Z"), "Asia/Kolkata")).toBe(Date.parse("2026-03-10T18:30:00Z"));
    // New York springs forward on 2026-03-08: that day has 23 hours; midnight after it is 04:00 UTC (EDT).
    expect(nextResetAt(Date.parse("2026-03-08T12:00:00Z"), "America/New_York")).toBe(Date.parse("2026-03-09T04:00:00Z"));
    expect(nextResetAt(Date.parse("2026-03-07T12:00:00Z"), "America/New_York")).toBe(Date.parse("2026-03-08T05:00:00Z"));
    expect(nextResetAt(Date.parse("2026-11-21T23:59:59Z"), "UTC")).toBe(Date.parse("2026-11-22T00:00:00Z"));
  });

  it("adds calendar days across month and year ends", () => {
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(addDays("2028-03-01", -1)).toBe("2028-02-29");
  });

  it("the quota clock moves to the next day exactly at the reset", () => {
    let now = Date.parse("2026-11-21T23:59:59.500Z");
    const clock = new QuotaClock("UTC", () => now);
    expect(clock.today()).toEqual({ day: "2026-11-21", resetsAt: Date.parse("2026-11-22T00:00:00Z") });
    now = Date.parse("2026-11-22T00:00:00Z");
    expect(clock.today().day).toBe("2026-11-22");
  });
});
