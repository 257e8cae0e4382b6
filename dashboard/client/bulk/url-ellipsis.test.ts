import { describe, expect, it } from "vitest";
import { ellipsisParts } from "./url-ellipsis.ts";

describe("ellipsisParts", () => {
  it("keeps the last path segment whole, and the rest of the URL before it", () => {
    expect(ellipsisParts("https://www.example-news.com/2026/05/budget-vote")).toEqual({
      head: "https://www.example-news.com/2026/05",
      tail: "/budget-vote",
    });
  });

  it("keeps the query with the last segment, so URLs that differ only there stay apart", () => {
    expect(ellipsisParts("https://www.example-news.com/article?id=17").tail).toBe("/article?id=17");
  });

  it("keeps at most the last characters of a long segment", () => {
    const url = `https://example.com/${"a".repeat(40)}-end`;
    const { head, tail } = ellipsisParts(url, 24);
    expect(tail).toBe(`${"a".repeat(20)}-end`);
    expect(head + tail).toBe(url);
  });

  it("never takes any of the host into the tail", () => {
    expect(ellipsisParts("https://example.com")).toEqual({ head: "https://example.com", tail: "" });
    expect(ellipsisParts("https://example.com/")).toEqual({ head: "https://example.com", tail: "/" });
    expect(ellipsisParts("https://example.com?q=1")).toEqual({ head: "https://example.com", tail: "?q=1" });
    expect(ellipsisParts("https://user@example.com:8080/x")).toEqual({ head: "https://user@example.com:8080", tail: "/x" });
  });

  it("cuts between characters, not inside one", () => {
    const url = `https://bücher.example/${"😀".repeat(30)}`;
    const { head, tail } = ellipsisParts(url, 10);
    expect(tail).toBe("😀".repeat(10));
    expect(head + tail).toBe(url);
  });

  it("keeps the end of what is not a URL at all", () => {
    expect(ellipsisParts("not a url, but a long line of text", 6)).toEqual({ head: "not a url, but a long line o", tail: "f text" });
  });
});
