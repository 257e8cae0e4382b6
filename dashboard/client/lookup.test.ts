import { describe, expect, it } from "vitest";
import { networkLookupRows } from "./lookup.ts";

describe("networkLookupRows", () => {
  it("lists the networks answered, in the API's order, each with its headline number and the numbers it is made of", () => {
    const rows = networkLookupRows({
      reddit: { status: "ok", score: 40, comments: 7, posts: 2 },
      pinterest: { status: "ok", count: 9 },
    });
    expect(rows.map((row) => row.key)).toEqual(["pinterest", "reddit"]);
    expect(rows[1]).toEqual({
      key: "reddit",
      label: "Reddit",
      measure: "score + comments",
      headline: 47,
      fields: [
        { label: "Score", value: 40 },
        { label: "Comments", value: 7 },
        { label: "Posts", value: 2 },
      ],
      staleNote: null,
    });
    expect(rows[0]!.fields).toEqual([]);
  });

  it("says how old a stale value is", () => {
    const [row] = networkLookupRows({ tumblr: { status: "stale", age_seconds: 3 * 3600 + 120, notes: 8 } });
    expect(row).toMatchObject({ headline: 8, staleNote: "last known, 3 h 2 min old" });
    expect(networkLookupRows({ vk: { status: "stale", count: 1 } })[0]!.staleNote).toBe("last known count");
  });

  it("shows a network that did not report as not reported (null), without its empty fields", () => {
    const [row] = networkLookupRows({ hackernews: { status: "unavailable", points: null, comments: null, stories: null } });
    expect(row).toMatchObject({ headline: null, fields: [], staleNote: null });
  });
});
