import { describe, expect, it } from "vitest";
import { headlineCount } from "./networks.ts";

const FACEBOOK_NULLS = { total_count: null, comment_count: null, reaction_count: null, share_count: null, comment_plugin_count: null };

describe("headlineCount", () => {
  it("reads Facebook's total_count and Pinterest's count, stale ones included", () => {
    const networks = {
      facebook: { status: "ok" as const, total_count: 12, comment_count: 1, reaction_count: 2, share_count: 9, comment_plugin_count: 0 },
      pinterest: { status: "stale" as const, age_seconds: 60, count: 0 },
    };
    expect(headlineCount(networks, "facebook")).toBe(12);
    expect(headlineCount(networks, "pinterest")).toBe(0);
  });

  it("is null, not 0, for a network that did not report or was not asked", () => {
    expect(headlineCount({ facebook: { status: "unavailable", ...FACEBOOK_NULLS }, pinterest: { status: "unavailable", count: null } }, "facebook")).toBeNull();
    expect(headlineCount({}, "pinterest")).toBeNull();
  });
});
