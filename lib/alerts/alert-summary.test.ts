import { describe, expect, it } from "vitest";
import { summaryOf } from "./alert-summary.ts";

const at = Date.UTC(2026, 10, 27, 12);

describe("an alert mail's summary", () => {
  it("links a spike and a milestone to the URL's own view, whose chart marks them", () => {
    const url = "https://example.com/post?id=1&x=2";
    const spike = summaryOf({ id: "evt_1", accountId: "a", type: "tracked_url.spike", data: { url, network: "Facebook", from: 120, to: 1450, window_hours: 24 }, createdAt: at });
    expect(spike.path).toBe(`/dashboard/urls/view?url=${encodeURIComponent(url)}`);
    expect(spike.lines).toEqual([`${url} grew from 120 to 1,450 shares and reactions within 24 hours (most on Facebook).`]);
    const milestone = summaryOf({ id: "evt_2", accountId: "a", type: "tracked_url.milestone", data: { url, total: 1012, milestone: 1000 }, createdAt: at });
    expect(milestone.path).toBe(spike.path);
    expect(milestone.lines[0]).toContain("passed 1,000");
  });

  it("sends quota alerts to the usage report", () => {
    const summary = summaryOf({ id: "evt_3", accountId: "a", type: "quota.warning", data: { used: 800, quota: 1000, day: "2026-11-27" }, createdAt: at });
    expect(summary.path).toBe("/dashboard/usage");
    expect(summary.lines[0]).toContain("800 of 1,000");
  });
});
