import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { trackedCsv, trackedCsvFilename } from "./tracked-csv.ts";
import type { TrackedItem } from "./types.ts";

const row = (url: string, facebook: number | null, reddit: [number, number] | null): TrackedItem => ({
  url,
  added_at: "2030-01-02T03:04:05.000Z",
  last_refreshed_at: facebook === null ? null : "2030-01-03T00:00:00.000Z",
  next_refresh_at: null,
  networks: {
    facebook:
      facebook === null
        ? { status: "unavailable", total_count: null, comment_count: null, reaction_count: null, share_count: null, comment_plugin_count: null }
        : { status: "ok", total_count: facebook, comment_count: 1, reaction_count: 2, share_count: facebook - 3, comment_plugin_count: 0 },
    reddit: reddit === null ? { status: "unavailable", score: null, comments: null, posts: null } : { status: "stale", age_seconds: 60, score: reddit[0], comments: reddit[1], posts: 1 },
  },
  total: facebook,
  change_7d: facebook === null ? null : -2,
  change_30d: null,
});

const parsed = (csv: string) => Papa.parse<string[]>(csv.replace(/^\uFEFF/, "").trimEnd(), { header: false }).data;

describe("trackedCsv", () => {
  it("has a row per URL as stored, with every number of the networks shown, empty where not reported", () => {
    const csv = trackedCsv([row("https://xn--bcher-kva.de/a,b", 10, [-4, 7]), row("https://example.com/", null, null)], ["facebook", "reddit"]);
    expect(csv.startsWith("\uFEFF")).toBe(true);
    expect(parsed(csv)).toEqual([
      [
        "url",
        "added_at",
        "last_refreshed_at",
        "total",
        "change_7d",
        "change_30d",
        "facebook_total_count",
        "facebook_comment_count",
        "facebook_reaction_count",
        "facebook_share_count",
        "facebook_comment_plugin_count",
        "reddit_score",
        "reddit_comments",
        "reddit_posts",
      ],
      ["https://xn--bcher-kva.de/a,b", "2030-01-02T03:04:05.000Z", "2030-01-03T00:00:00.000Z", "10", "-2", "", "10", "1", "2", "7", "0", "-4", "7", "1"],
      ["https://example.com/", "2030-01-02T03:04:05.000Z", "", "", "", "", "", "", "", "", "", "", "", ""],
    ]);
  });

  it("leaves out the networks not shown", () => {
    expect(parsed(trackedCsv([row("https://example.com/", 5, [1, 1])], ["reddit"]))[0]!.slice(6)).toEqual(["reddit_score", "reddit_comments", "reddit_posts"]);
  });
});

it("names the file after the day (UTC)", () => {
  expect(trackedCsvFilename(Date.UTC(2030, 0, 30, 23, 59))).toBe("sharecount-tracked-urls-2030-01-30.csv");
});
