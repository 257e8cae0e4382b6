import { describe, expect, it } from "vitest";
import { isSameOrigin } from "./same-origin.ts";

const headers = (values: Record<string, string>) => (name: string) => values[name] ?? null;

describe("isSameOrigin", () => {
  it("takes the browser's Sec-Fetch-Site when it sends one", () => {
    expect(isSameOrigin(headers({ "sec-fetch-site": "same-origin" }), undefined)).toBe(true);
    expect(isSameOrigin(headers({ "sec-fetch-site": "cross-site", origin: "http://127.0.0.1:3300", host: "127.0.0.1:3300" }), undefined)).toBe(false);
  });

  it("compares an Origin's scheme, host and port with the public URL or the origin asked", () => {
    expect(isSameOrigin(headers({ origin: "https://share.example.com" }), "https://share.example.com")).toBe(true);
    expect(isSameOrigin(headers({ origin: "http://127.0.0.1:3301", host: "127.0.0.1:3301" }), undefined)).toBe(true);
    // Another scheme or port is another site, whatever the host.
    expect(isSameOrigin(headers({ origin: "https://127.0.0.1:3301", host: "127.0.0.1:3301" }), undefined)).toBe(false);
    expect(isSameOrigin(headers({ origin: "http://127.0.0.1:3302", host: "127.0.0.1:3301" }), undefined)).toBe(false);
    expect(isSameOrigin(headers({ origin: "http://share.example.com", host: "share.example.com" }), "https://share.example.com")).toBe(true);
    expect(isSameOrigin(headers({ origin: "http://share.example.com", "x-forwarded-host": "share.example.com", "x-forwarded-proto": "https" }), undefined)).toBe(false);
    expect(isSameOrigin(headers({ origin: "https://share.example.com:443", "x-forwarded-host": "share.example.com", "x-forwarded-proto": "https" }), undefined)).toBe(true);
  });

  it("refuses no Origin, Origin: null and one that is no URL", () => {
    expect(isSameOrigin(headers({ host: "127.0.0.1:3301" }), undefined)).toBe(false);
    expect(isSameOrigin(headers({ origin: "null", host: "127.0.0.1:3301" }), undefined)).toBe(false);
    expect(isSameOrigin(headers({ origin: "not a url", host: "127.0.0.1:3301" }), undefined)).toBe(false);
  });
});
