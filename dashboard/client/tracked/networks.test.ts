import { describe, expect, it } from "vitest";
import { NETWORK_IDS } from "../../../lib/counts/all-networks.ts";
import { fieldCount, HEADLINE_NETWORKS, headlineCount, headlineNetworks } from "./networks.ts";
import type { Networks } from "./types.ts";

const FACEBOOK_NULLS = { total_count: null, comment_count: null, reaction_count: null, share_count: null, comment_plugin_count: null };

const every: Networks = {
  facebook: { status: "ok", total_count: 12, comment_count: 1, reaction_count: 2, share_count: 9, comment_plugin_count: 0 },
  pinterest: { status: "stale", age_seconds: 60, count: 0 },
  reddit: { status: "ok", score: 40, comments: 7, posts: 2 },
  hackernews: { status: "ok", points: 120, comments: 33, stories: 1 },
  bluesky: { status: "ok", likes: 10, reposts: 3, replies: 2, quotes: 1, posts: 4 },
  vk: { status: "ok", count: 5 },
  ok: { status: "stale", age_seconds: 3600, count: 6 },
  tumblr: { status: "ok", notes: 8 },
};

describe("HEADLINE_NETWORKS", () => {
  it("covers every network, in the API's order, with its label and what its number measures", () => {
    expect(HEADLINE_NETWORKS.map((n) => n.key)).toEqual([...NETWORK_IDS]);
    expect(HEADLINE_NETWORKS.find((n) => n.key === "hackernews")).toMatchObject({ label: "Hacker News", measure: "points + comments" });
    expect(HEADLINE_NETWORKS.find((n) => n.key === "facebook")?.measure).toBe("total count");
  });

  it("names the fields shown under a headline number, none for a network with one number", () => {
    expect(HEADLINE_NETWORKS.find((n) => n.key === "reddit")?.fields.map((f) => f.label)).toEqual(["Score", "Comments", "Posts"]);
    expect(HEADLINE_NETWORKS.find((n) => n.key === "vk")?.fields).toEqual([]);
  });
});

describe("headlineNetworks", () => {
  it("keeps the order it is given", () => {
    expect(headlineNetworks(["tumblr", "facebook"]).map((n) => n.label)).toEqual(["Tumblr", "Facebook"]);
    expect(headlineNetworks([])).toEqual([]);
  });
});

describe("headlineCount", () => {
  it("reads each network's headline number (what the API's total sums), stale ones included", () => {
    const numbers = Object.fromEntries(NETWORK_IDS.map((id) => [id, headlineCount(every, id)]));
    expect(numbers).toEqual({ facebook: 12, pinterest: 0, reddit: 47, hackernews: 153, bluesky: 16, vk: 5, ok: 6, tumblr: 8 });
  });

  it("is null, not 0, for a network that did not report or was not asked", () => {
    expect(headlineCount({ facebook: { status: "unavailable", ...FACEBOOK_NULLS }, pinterest: { status: "unavailable", count: null } }, "facebook")).toBeNull();
    expect(headlineCount({}, "pinterest")).toBeNull();
    expect(headlineCount({ reddit: { status: "unavailable", score: null, comments: null, posts: null } }, "reddit")).toBeNull();
  });

  it("is null rather than a part of the sum when a summed field is missing", () => {
    expect(headlineCount({ reddit: { status: "ok", score: 3, comments: null, posts: 1 } }, "reddit")).toBeNull();
  });
});

describe("fieldCount", () => {
  it("reads one field, null when the network did not report", () => {
    expect(fieldCount(every, "bluesky", "posts")).toBe(4);
    expect(fieldCount({ vk: { status: "unavailable", count: null } }, "vk", "count")).toBeNull();
    expect(fieldCount({}, "tumblr", "notes")).toBeNull();
  });
});
