import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import type { CountObject } from "../api-schemas.ts";
import { resultRows, resultsCsv, resultsJson, sortResultRows, type BulkResultRow } from "./results.ts";

function counts(total: number | null, pinterest: number | null): CountObject {
  const part = total === null ? null : total / 2;
  return {
    StumbleUpon: null,
    Pinterest: pinterest,
    LinkedIn: null,
    Facebook: { total_count: total, comment_count: part, reaction_count: part, share_count: total === null ? null : 0, comment_plugin_count: 0 },
    GooglePlusOne: null,
  };
}

const data = {
  "https://a.com/1": counts(10, 3),
  "https://b.com/ü?x=1,2": counts(null, 0),
  "https://c.com/": counts(4, null),
};
const rows: BulkResultRow[] = resultRows(data);

describe("resultRows", () => {
  it("keeps the API's order and reads an empty array as no rows", () => {
    expect(rows.map((row) => row.url)).toEqual(Object.keys(data));
    expect(resultRows([])).toEqual([]);
  });
});

describe("resultsCsv", () => {
  const csv = resultsCsv(rows);

  it("starts with a byte-order mark and a header row, one row per URL", () => {
    expect(csv.startsWith("\uFEFFurl,facebook_total,")).toBe(true);
    const parsed = Papa.parse<string[]>(csv.slice(1), { skipEmptyLines: true }).data;
    expect(parsed[0]).toEqual(["url", "facebook_total", "facebook_comments", "facebook_reactions", "facebook_shares", "facebook_comment_plugin", "pinterest"]);
    expect(parsed).toHaveLength(4);
  });

  it("writes null as an empty cell and 0 as 0, and quotes URLs with commas", () => {
    const parsed = Papa.parse<string[]>(csv.slice(1), { skipEmptyLines: true }).data;
    expect(parsed[1]).toEqual(["https://a.com/1", "10", "5", "5", "0", "0", "3"]);
    expect(parsed[2]).toEqual(["https://b.com/ü?x=1,2", "", "", "", "", "0", "0"]);
    expect(parsed[3]).toEqual(["https://c.com/", "4", "2", "2", "0", "0", ""]);
    expect(csv).toContain('"https://b.com/ü?x=1,2"');
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

  it("sorts counts either way with not reported last", () => {
    expect(urls(sortResultRows(rows, { column: "facebook_total", direction: "descending" }))).toEqual(["https://a.com/1", "https://c.com/", "https://b.com/ü?x=1,2"]);
    expect(urls(sortResultRows(rows, { column: "facebook_total", direction: "ascending" }))).toEqual(["https://c.com/", "https://a.com/1", "https://b.com/ü?x=1,2"]);
    expect(urls(sortResultRows(rows, { column: "pinterest", direction: "ascending" }))).toEqual(["https://b.com/ü?x=1,2", "https://a.com/1", "https://c.com/"]);
  });

  it("sorts URLs as text and leaves its input alone", () => {
    expect(urls(sortResultRows(rows, { column: "url", direction: "descending" }))).toEqual(["https://c.com/", "https://b.com/ü?x=1,2", "https://a.com/1"]);
    expect(urls(rows)).toEqual(Object.keys(data));
  });
});
