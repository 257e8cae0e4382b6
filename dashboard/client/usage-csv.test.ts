import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { usageCsv, usageCsvFilename } from "./usage-csv.ts";

const days = [
  { date: "2026-03-08", queries: 0, quota: 0 },
  { date: "2026-03-09", queries: 3, quota: 100_000 },
  { date: "2026-03-10", queries: 450, quota: 500 },
];

describe("usageCsv", () => {
  it("has a header row and one row per day, oldest first, with ISO dates and plain numbers", () => {
    expect(usageCsv(days)).toBe(
      ["date,queries,quota,percent_used", "2026-03-08,0,0,", "2026-03-09,3,100000,0.003", "2026-03-10,450,500,90"].join("\r\n"),
    );
  });

  it("reads back as the same numbers", () => {
    const parsed = Papa.parse<Record<string, string>>(usageCsv(days), { header: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data.map((row) => [row.date, Number(row.queries), Number(row.quota)])).toEqual(
      days.map((day) => [day.date, day.queries, day.quota]),
    );
  });

  it("is only the header row for no days", () => {
    expect(usageCsv([]).trimEnd()).toBe("date,queries,quota,percent_used");
  });
});

describe("usageCsvFilename", () => {
  it("names the range", () => {
    expect(usageCsvFilename(days)).toBe("sharecount-usage-2026-03-08-to-2026-03-10.csv");
    expect(usageCsvFilename([])).toBe("sharecount-usage.csv");
  });
});
