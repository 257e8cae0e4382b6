import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { NETWORK_IDS, type NetworkId } from "../../../lib/counts/all-networks.ts";
import { networksV2Schema, numberFieldsOf, STATUS_FIELDS } from "../../../lib/v2/schemas.ts";
import type { Networks } from "../tracked/types.ts";
import { resultRows, resultsCsv, resultsJson, sortResultRows, type BulkResultRow } from "./results.ts";

const UNAVAILABLE_FACEBOOK = { status: "unavailable", total_count: null, comment_count: null, reaction_count: null, share_count: null, comment_plugin_count: null } as const;

/** Facebook `total` (its parts halves of it), Pinterest and Reddit as the API answers them; null: unavailable. */
function networks(total: number | null, pinterest: number | null, reddit: [score: number, comments: number] | null): Networks {
  const part = total === null ? null : total / 2;
  return {
    facebook:
      total === null
        ? UNAVAILABLE_FACEBOOK
        : { status: "ok", total_count: total, comment_count: part, reaction_count: part, share_count: 0, comment_plugin_count: 0 },
    pinterest: pinterest === null ? { status: "unavailable", count: null } : { status: "stale", age_seconds: 600, count: pinterest },
    reddit: reddit === null ? { status: "unavailable", score: null, comments: null, posts: null } : { status: "ok", score: reddit[0], comments: reddit[1], posts: 1 },
  };
}

const JOB_NETWORKS: NetworkId[] = ["facebook", "pinterest", "reddit"];
const data = {
  "https://a.com/1": networks(10, 3, [-5, 2]),
  "https://b.com/ü?x=1,2": networks(null, 0, [7, 0]),
  "https://c.com/": networks(4, null, null),
};
const rows: BulkResultRow[] = resultRows(data);

describe("resultRows", () => {
  it("keeps the API's order and reads an empty array as no rows", () => {
    expect(rows.map((row) => row.url)).toEqual(Object.keys(data));
    expect(resultRows([])).toEqual([]);
  });
});

describe("numberFieldsOf", () => {
  it("names each network's numbers as its v2 object does, and nothing else", () => {
    expect(numberFieldsOf("facebook")).toEqual(["total_count", "comment_count", "reaction_count", "share_count", "comment_plugin_count"]);
    expect(numberFieldsOf("pinterest")).toEqual(["count"]);
    expect(numberFieldsOf("reddit")).toEqual(["score", "comments", "posts"]);
    for (const network of NETWORK_IDS) {
      const object = networksV2Schema.shape[network].unwrap();
      expect([...STATUS_FIELDS, ...numberFieldsOf(network)].sort()).toEqual(Object.keys(object.shape).sort());
    }
  });
});

describe("resultsCsv", () => {
  const csv = resultsCsv(rows, JOB_NETWORKS);
  const parsed = Papa.parse<string[]>(csv.slice(1), { skipEmptyLines: true }).data;

  it("starts with a byte-order mark and a header row of every field of the job's networks, one row per URL", () => {
    expect(csv.startsWith("\uFEFFurl,facebook_total_count,")).toBe(true);
    expect(parsed[0]).toEqual([
      "url",
      "facebook_total_count",
      "facebook_comment_count",
      "facebook_reaction_count",
      "facebook_share_count",
      "facebook_comment_plugin_count",
      "pinterest_count",
      "reddit_score",
      "reddit_comments",
      "reddit_posts",
    ]);
    expect(parsed).toHaveLength(4);
  });

  it("writes null as an empty cell and 0 as 0, keeps stale values and negative scores, and quotes URLs with commas", () => {
    expect(parsed[1]).toEqual(["https://a.com/1", "10", "5", "5", "0", "0", "3", "-5", "2", "1"]);
    expect(parsed[2]).toEqual(["https://b.com/ü?x=1,2", "", "", "", "", "", "0", "7", "0", "1"]);
    expect(parsed[3]).toEqual(["https://c.com/", "4", "2", "2", "0", "0", "", "", "", ""]);
    expect(csv).toContain('"https://b.com/ü?x=1,2"');
  });

  it("has only the job's networks, in the job's order", () => {
    const [header] = Papa.parse<string[]>(resultsCsv(rows, ["pinterest"]).slice(1), { skipEmptyLines: true }).data;
    expect(header).toEqual(["url", "pinterest_count"]);
  });

  it("uses CRLF line ends, as spreadsheets expect", () => {
    expect(csv.split("\r\n")).toHaveLength(5);
  });
});

describe("resultsJson", () => {
  it("is the API's data object", () => {
    expect(JSON.parse(resultsJson(rows))).toEqual(data);
  });
});

describe("sortResultRows", () => {
  const urls = (sorted: BulkResultRow[]) => sorted.map((row) => row.url);

  it("sorts a network's headline number either way with not reported last", () => {
    expect(urls(sortResultRows(rows, { column: "facebook", direction: "descending" }))).toEqual(["https://a.com/1", "https://c.com/", "https://b.com/ü?x=1,2"]);
    expect(urls(sortResultRows(rows, { column: "facebook", direction: "ascending" }))).toEqual(["https://c.com/", "https://a.com/1", "https://b.com/ü?x=1,2"]);
    expect(urls(sortResultRows(rows, { column: "pinterest", direction: "ascending" }))).toEqual(["https://b.com/ü?x=1,2", "https://a.com/1", "https://c.com/"]);
  });

  it("sorts Reddit by score + comments, a negative score below 0", () => {
    expect(urls(sortResultRows(rows, { column: "reddit", direction: "descending" }))).toEqual(["https://b.com/ü?x=1,2", "https://a.com/1", "https://c.com/"]);
    expect(urls(sortResultRows(rows, { column: "reddit", direction: "ascending" }))).toEqual(["https://a.com/1", "https://b.com/ü?x=1,2", "https://c.com/"]);
  });

  it("sorts URLs as text and leaves its input alone", () => {
    expect(urls(sortResultRows(rows, { column: "url", direction: "descending" }))).toEqual(["https://c.com/", "https://b.com/ü?x=1,2", "https://a.com/1"]);
    expect(urls(rows)).toEqual(Object.keys(data));
  });
});
