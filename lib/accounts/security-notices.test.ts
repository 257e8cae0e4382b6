import { describe, expect, it } from "vitest";
import { mailTime } from "./security-notices.ts";

describe("mailTime", () => {
  it("says the day and the minute in UTC, whatever the machine's zone", () => {
    expect(mailTime(Date.UTC(2026, 2, 1, 9, 0, 59))).toBe("on 1 March 2026 at 09:00 UTC");
    expect(mailTime(Date.UTC(2026, 11, 31, 23, 59))).toBe("on 31 December 2026 at 23:59 UTC");
  });
});
