import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { usageCsv, usageCsvFilename } from "./usage-csv.ts";

const days = [
  { date: "2026-03-08", served: 0, refused: { quota: 0, whitelist: 0, invalid: 0 }, quota: 0 },
  { date: "2026-03-09", served: 3, refused: { quota: 0, whitelist: 2, invalid: 1 }, quota: 100_000 },
  { date: "2026-03-10", served: 450, refused: { quota: 12, whitelist: 0, invalid: 0 }, quota: 500 },
];

describe("usageCsv", () => {
  it("has a header row and one row per day, oldest first, with ISO dates and plain numbers, the refused columns last", () => {
    expect(usageCsv(days)).toBe(
      [
        "date,queries,quota,percent_used,refused_quota,refused_whitelist,refused_invalid",
        "2026-03-08,0,0,,0,0,0",
        "2026-03-09,3,100000,0.003,0,2,1",
        "2026-03-10,450,500,90,12,0,0",
      ].join("\r\n"),
    );
  });

  it("reads back as the same numbers", () => {
    const parsed = Papa.parse<Record<string, string>>(usageCsv(days), { header: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data.map((row) => [row.date, Number(row.queries), Number(row.quota), Number(row.refused_quota), Number(row.refused_whitelist), Number(row.refused_invalid)])).toEqual(
      days.map((day) => [day.date, day.served, day.quota, day.refused.quota, day.refused.whitelist, day.refused.invalid]),
    );
  });

  it("is only the header row for no days", () => {
    expect(usageCsv([]).trimEnd()).toBe("date,queries,quota,percent_used,refused_quota,refused_whitelist,refused_invalid");
  });
});

describe("usageCsvFilename", () => {
  it("names the range", () => {
    expect(usageCsvFilename(days)).toBe("sharecount-usage-2026-03-08-to-2026-03-10.csv");
    expect(usageCsvFilename([])).toBe("sharecount-usage.csv");
  });
});
