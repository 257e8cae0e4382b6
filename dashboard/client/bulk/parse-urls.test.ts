import { describe, expect, it } from "vitest";
import { parseUserUrl } from "../../../lib/urls/user-url.ts";
import { formatOfFile, parseUrlList } from "./parse-urls.ts";
import { excessOverLimit, planFitting } from "./plan-fit.ts";

describe("parseUrlList: one URL per line", () => {
  it("keeps valid URLs as written, in order, and counts invalid lines and repeats", () => {
    const text = ["https://a.com/1", "not a url", "https://a.com/2", "", "   ", "ftp://a.com/", "HTTPS://A.COM/1#top", "https://a.com/2"].join("\n");
    const list = parseUrlList(text, "lines");
    expect(list.urls).toEqual(["https://a.com/1", "https://a.com/2"]);
    expect(list.invalid.map((entry) => [entry.line, entry.value])).toEqual([
      [2, "not a url"],
      [6, "ftp://a.com/"],
    ]);
    expect(list.invalid[0]!.reason).toMatch(/http/);
    expect(list.duplicates).toBe(2);
    expect(list.outsideWhitelist).toBe(0);
  });

  it("reads CRLF and lone CR line breaks, a byte-order mark, and trims each line", () => {
    const list = parseUrlList("\uFEFFhttps://a.com/1\r\n  https://a.com/2  \rhttps://a.com/3\r\n", "lines");
    expect(list.urls).toEqual(["https://a.com/1", "https://a.com/2", "https://a.com/3"]);
    expect(list.invalid).toEqual([]);
  });

  it("treats a repeat after normalization (host case, fragment, credentials) as a duplicate", () => {
    const list = parseUrlList("https://example.com/a\nhttps://EXAMPLE.com/a#x\nhttps://user:pw@example.com/a", "lines");
    expect(list.urls).toEqual(["https://example.com/a"]);
    expect(list.duplicates).toBe(2);
  });

  it("refuses what the API refuses: no host dot, over 2048 characters", () => {
    const long = `https://a.com/${"x".repeat(2048)}`;
    const list = parseUrlList(`http://localhost/\n${long}\nhttps://ok.com/`, "lines");
    expect(list.urls).toEqual(["https://ok.com/"]);
    expect(list.invalid.map((entry) => entry.line)).toEqual([1, 2]);
  });

  it("is empty for empty input", () => {
    expect(parseUrlList("", "lines")).toEqual({ urls: [], invalid: [], duplicates: 0, outsideWhitelist: 0 });
  });
});

describe("parseUrlList: CSV", () => {
  it("takes the column headed url, whatever its case and position", () => {
    const csv = 'title,URL,shares\r\nHome,https://a.com/,3\r\n"About, us",https://a.com/about,1\r\nBroken,nope,0\r\n';
    const list = parseUrlList(csv, "csv");
    expect(list.urls).toEqual(["https://a.com/", "https://a.com/about"]);
    expect(list.invalid).toEqual([expect.objectContaining({ line: 4, value: "nope" })]);
  });

  it("takes the first column without a url header, skipping a header row that holds no URL", () => {
    const list = parseUrlList("page,note\nhttps://a.com/1,x\nhttps://a.com/2,https://b.com/", "csv");
    expect(list.urls).toEqual(["https://a.com/1", "https://a.com/2"]);
    expect(list.invalid).toEqual([]);
  });

  it("keeps the first row when it is already a URL (no header)", () => {
    const list = parseUrlList("\uFEFFhttps://a.com/1\nhttps://a.com/2\nhttps://a.com/1\n", "csv");
    expect(list.urls).toEqual(["https://a.com/1", "https://a.com/2"]);
    expect(list.duplicates).toBe(1);
  });

  it("reads quoted URLs that contain commas", () => {
    const list = parseUrlList('url\n"https://a.com/?ids=1,2,3"\n', "csv");
    expect(list.urls).toEqual(["https://a.com/?ids=1,2,3"]);
  });

  it("numbers rows so an invalid cell can be found", () => {
    const list = parseUrlList("url\nhttps://a.com/\n\nmissing-scheme.com\n", "csv");
    expect(list.invalid).toEqual([expect.objectContaining({ line: 4, value: "missing-scheme.com" })]);
  });
});

describe("parseUrlList: whitelist", () => {
  it("counts URLs an enforced whitelist refuses and leaves them out, as the API does", () => {
    const text = "https://a.com/\nhttps://blog.b.com/\nhttps://evil.com/\nhttps://evil.com/";
    const list = parseUrlList(text, "lines", { enabled: true, domains: ["a.com", "*.b.com"] });
    expect(list.urls).toEqual(["https://a.com/", "https://blog.b.com/"]);
    expect(list.outsideWhitelist).toBe(1);
    expect(list.duplicates).toBe(1);
  });

  it("ignores a whitelist that is not enforced", () => {
    expect(parseUrlList("https://evil.com/", "lines", { enabled: false, domains: [] }).urls).toEqual(["https://evil.com/"]);
  });
});

describe("parseUrlList: URLs to track (parseUserUrl)", () => {
  it("reads a bare host or host/path as https, and counts it once with its https form", () => {
    const list = parseUrlList("example.org/page\nhttps://example.org/page\nexample.org\nsomeone@example.org", "lines", null, parseUserUrl);
    expect(list.urls).toEqual(["example.org/page", "example.org"]);
    expect(list.duplicates).toBe(1);
    expect(list.invalid).toEqual([expect.objectContaining({ line: 4, value: "someone@example.org" })]);
  });

  it("takes a first CSV row of bare hosts as URLs, not as a header", () => {
    expect(parseUrlList("a.com,x\nb.com/page,y\n", "csv", null, parseUserUrl).urls).toEqual(["a.com", "b.com/page"]);
    expect(parseUrlList("url,note\na.com,x\n", "csv", null, parseUserUrl).urls).toEqual(["a.com"]);
  });

  it("leaves a bulk job's rule as it was: a URL needs its scheme", () => {
    expect(parseUrlList("example.org/page", "lines").invalid).toHaveLength(1);
  });
});

describe("formatOfFile", () => {
  it("reads .csv as CSV and anything else as lines", () => {
    expect(formatOfFile("urls.CSV")).toBe("csv");
    expect(formatOfFile("urls.txt")).toBe("lines");
    expect(formatOfFile("urls.csv.txt")).toBe("lines");
  });
});

describe("limits", () => {
  it("says how many URLs to remove", () => {
    expect(excessOverLimit(1005, 1000)).toBe(5);
    expect(excessOverLimit(1000, 1000)).toBe(0);
    expect(excessOverLimit(3, 1000)).toBe(0);
  });

  const plans = [
    { name: "dedicated", bulkBatchLimit: 10_000 },
    { name: "plus", bulkBatchLimit: 500 },
    { name: "business", bulkBatchLimit: 1_000 },
  ];

  it("names the smallest plan that holds a job", () => {
    expect(planFitting(1005, plans)?.name).toBe("dedicated");
    expect(planFitting(600, plans)?.name).toBe("business");
    expect(planFitting(0, plans)?.name).toBe("plus");
    expect(planFitting(10_001, plans)).toBeNull();
  });
});
