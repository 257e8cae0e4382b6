import { describe, expect, it } from "vitest";
import { describeMark, marksFor, type AlertMark } from "./marks.ts";

const DAY = 86_400_000;
const start = Date.parse("2026-11-01T00:00:00Z");
const spike: AlertMark = { id: "e1", kind: "spike", at: start + 2 * DAY + 3_600_000, url: "https://a.test/", network: "facebook", from: 100, to: 1250, windowHours: 24 };
const milestone: AlertMark = { id: "e2", kind: "milestone", at: start + 5 * DAY, url: "https://a.test/", milestone: 1000, total: 1042 };
const otherSpike: AlertMark = { ...spike, id: "e3", network: "reddit", at: start + 40 * DAY };

describe("chart marks", () => {
  it("say what happened and when, in the UTC day the charts use", () => {
    expect(describeMark(spike)).toBe("Nov 3, 2026: Facebook spike, 100 → 1,250 in 24 h");
    expect(describeMark(milestone)).toBe("Nov 6, 2026: passed 1,000 (total 1,042)");
  });

  it("an unknown network is named as the API named it", () => {
    expect(describeMark({ ...spike, network: "mastodon" })).toContain("mastodon spike");
  });

  it("the total's chart shows every mark in its range; a network's chart only its own spikes", () => {
    const domain: [number, number] = [start, start + 30 * DAY];
    expect(marksFor([spike, milestone, otherSpike], null, domain).map((m) => m.id)).toEqual(["e1", "e2"]);
    expect(marksFor([spike, milestone, otherSpike], "facebook", domain).map((m) => m.id)).toEqual(["e1"]);
    expect(marksFor([spike, milestone, otherSpike], "reddit", domain)).toEqual([]);
  });
});
