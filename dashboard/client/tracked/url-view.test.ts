import { describe, expect, it } from "vitest";
import { historyCsvPath, historyPath, parseUrlView, shortUrl, urlViewHref } from "./url-view.ts";

describe("parseUrlView", () => {
  it("reads the URL, range and interval from the page's search params", () => {
    expect(parseUrlView({ url: "https://example.com/a?b=1", range: "7", interval: "hour" })).toEqual({
      url: "https://example.com/a?b=1",
      range: 7,
      interval: "hour",
    });
  });

  it("falls back to 30 days, daily, for a missing or unknown range or interval", () => {
    expect(parseUrlView({ url: "https://example.com/", range: "14", interval: "minute" })).toMatchObject({ range: 30, interval: "day" });
    expect(parseUrlView({ url: "https://example.com/" })).toMatchObject({ range: 30, interval: "day" });
  });

  it("has no URL when none or a blank one is given, and takes the first of repeated params", () => {
    expect(parseUrlView({}).url).toBeNull();
    expect(parseUrlView({ url: "  " }).url).toBeNull();
    expect(parseUrlView({ url: ["https://a.example/", "https://b.example/"], range: ["90", "7"] })).toMatchObject({
      url: "https://a.example/",
      range: 90,
    });
  });
});

describe("links", () => {
  it("writes the whole view into the page's address, the URL encoded", () => {
    const href = urlViewHref("https://example.com/a?b=1&c=2");
    expect(href).toBe("/dashboard/urls/view?url=https%3A%2F%2Fexample.com%2Fa%3Fb%3D1%26c%3D2&range=30&interval=day");
    expect(parseUrlView(Object.fromEntries(new URL(href, "http://x").searchParams))).toEqual({
      url: "https://example.com/a?b=1&c=2",
      range: 30,
      interval: "day",
    });
    expect(urlViewHref("https://example.com/", { range: 365, interval: "hour" })).toMatch(/range=365&interval=hour$/);
  });

  it("asks the history and its CSV for the same view", () => {
    const view = { url: "https://example.com/", range: 7 as const, interval: "hour" as const };
    expect(historyPath(view)).toBe("/api/dashboard/history?url=https%3A%2F%2Fexample.com%2F&range=7&interval=hour");
    expect(historyCsvPath(view)).toBe("/api/dashboard/history/csv?url=https%3A%2F%2Fexample.com%2F&range=7&interval=hour");
  });
});

describe("shortUrl", () => {
  it("drops https:// only, and parts the site from the rest", () => {
    expect(shortUrl("https://example.com/a/b?c=1")).toEqual({ site: "example.com", rest: "/a/b?c=1" });
    expect(shortUrl("http://example.com/")).toEqual({ site: "http://example.com", rest: "/" });
    expect(shortUrl("https://example.com")).toEqual({ site: "example.com", rest: "" });
  });
});
