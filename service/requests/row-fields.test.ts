import { describe, expect, it } from "vitest";
import { ipPrefix, loggedTarget, loggedUrl, MAX_QUERY_LENGTH } from "./row-fields.ts";

describe("what a request log row keeps", () => {
  it("removes apikey from the query in any letter case and encoding, keeping the rest", () => {
    for (const name of ["apikey", "apiKey", "APIKEY", "ApiKey", "api%6Bey", "API_KEY", "api-key"]) {
      const { path, query } = loggedTarget(`/v1.0/?url=https%3A%2F%2Fa.example%2F&${name}=0123456789abcdef&custom_ttl=5`);
      expect(path).toBe("/v1.0/");
      expect(query).toBe("url=https%3A%2F%2Fa.example%2F&custom_ttl=5");
    }
    expect(loggedTarget("/v2/usage?apikey=SECRET").query).toBe("");
    expect(loggedTarget("/v2/usage").query).toBe("");
  });

  it("removes a key from the URL a request names, sent encoded or not", () => {
    const raw = loggedTarget("/v1.0/?url=https://a.example/p?x=1&ApiKey=SECRET&apikey=SECRET2");
    expect(raw.query).toBe("url=https://a.example/p?x=1");
    expect(loggedUrl(raw.query)).toBe("https://a.example/p?x=1");
    const encoded = loggedTarget(`/v2/counts?url=${encodeURIComponent("https://a.example/p?APIKEY=SECRET&y=2#top")}`);
    expect(encoded.query).not.toMatch(/SECRET/);
    expect(loggedUrl(encoded.query)).toBe("https://a.example/p?y=2#top");
    expect(loggedUrl("limit=5")).toBeNull();
  });

  it("removes a key sent twice encoded, in the query or inside the URL it names", () => {
    const { query } = loggedTarget(`/v1.0/?api%255Fkey=SECRET1&url=${encodeURIComponent("https://a.example/u?api%5Fkey=SECRET2")}`);
    expect(query).not.toMatch(/SECRET/);
    expect(loggedUrl(query)).toBe("https://a.example/u");
    // A URL's own escapes are kept: it is decoded once, as it was encoded.
    expect(loggedUrl(loggedTarget(`/v1.0/?url=${encodeURIComponent("https://a.example/a%20b?q=%2F")}`).query)).toBe("https://a.example/a%20b?q=%2F");
  });

  it("replaces a key sent as a path segment, and keeps a bulk id of the same shape", () => {
    const key = "0123456789abcdef0123456789abcdef01234567";
    expect(loggedTarget(`/v2/keys/${key}?x=1`).path).toBe("/v2/keys/[redacted]");
    expect(loggedTarget(`/v2/keys/${key}/roll`).path).toBe("/v2/keys/[redacted]/roll");
    expect(loggedTarget(`/v2/bulk/${key}`).path).toBe(`/v2/bulk/${key}`);
  });

  it("bounds the query", () => {
    expect(loggedTarget(`/v1.0/?url=${"a".repeat(10_000)}`).query).toHaveLength(MAX_QUERY_LENGTH);
  });

  it("keeps an IPv4 /24, an IPv6 /48 and an IPv4-mapped address's /24, never the address", () => {
    expect(ipPrefix("203.0.113.77")).toBe("203.0.113.0/24");
    expect(ipPrefix("::ffff:203.0.113.77")).toBe("203.0.113.0/24");
    expect(ipPrefix("::ffff:cb00:714d")).toBe("203.0.113.0/24");
    expect(ipPrefix("2001:db8:abcd:12:1:2:3:4")).toBe("2001:db8:abcd::/48");
    expect(ipPrefix("2001:db8::1")).toBe("2001:db8:0::/48");
    expect(ipPrefix("::1")).toBe("0:0:0::/48");
    expect(ipPrefix(undefined)).toBe("");
    expect(ipPrefix("not an address")).toBe("");
  });
});
