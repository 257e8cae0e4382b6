import { describe, expect, it } from "vitest";
import { hostAllowed, normalizeWhitelistEntry } from "./domains.ts";

const domainOf = (input: string) => {
  const result = normalizeWhitelistEntry(input);
  if (!result.ok) throw new Error(`expected ${JSON.stringify(input)} to be accepted, got: ${result.reason}`);
  return result.domain;
};

describe("normalizeWhitelistEntry", () => {
  it.each([
    ["example.com", "example.com"],
    ["Example.COM", "example.com"],
    ["  example.com  ", "example.com"],
    ["example.com.", "example.com"],
    ["https://Example.com:8080/path?x=1#top", "example.com"],
    ["http://example.com/", "example.com"],
    ["example.com:443", "example.com"],
    ["example.com/some/page", "example.com"],
    ["sub.example.com", "sub.example.com"],
    ["bücher.de", "xn--bcher-kva.de"],
    ["BÜCHER.de", "xn--bcher-kva.de"],
    ["xn--bcher-kva.de", "xn--bcher-kva.de"],
    ["*.example.com", "*.example.com"],
    ["*.Example.COM", "*.example.com"],
    ["https://*.example.com/path", "*.example.com"],
    ["*.bücher.de", "*.xn--bcher-kva.de"],
  ])("%j → %s", (input, expected) => {
    expect(normalizeWhitelistEntry(input)).toEqual({ ok: true, domain: expected });
  });

  it.each([
    ["a..b"],
    ["-a.com"],
    ["a-.com"],
    ["localhost"],
    ["x@y.com"],
    ["user:pass@y.com"],
    ["*.*.a.com"],
    ["a.*.com"],
    ["a*.com"],
    ["*"],
    ["*."],
    ["*.com"],
    [""],
    ["   "],
    ["exa mple.com"],
    ["a_b.com"],
    ["a.com:abc"],
    ["[::1]"],
    [`${"a".repeat(64)}.com`],
    [`${"abcdefghij.".repeat(25)}com`],
    // Hosts no URL can be counted for: private and loopback addresses, special-use names.
    ["192.168.0.1"],
    ["10.1.2.3"],
    ["127.0.0.1"],
    ["http://169.254.169.254/"],
    ["0x7f.1"],
    ["app.localhost"],
    ["printer.local"],
    ["*.home.arpa"],
    ["*.in-addr.arpa"],
    ["hidden.onion"],
    ["www.example"],
    ["[4000::1]"],
    ["*.internal"],
  ])("refuses %j with a reason", (input) => {
    const result = normalizeWhitelistEntry(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason.length).toBeGreaterThan(0);
  });

  it("takes a public address, as the API counts URLs on one", () => {
    expect(domainOf("8.8.8.8")).toBe("8.8.8.8");
    expect(normalizeWhitelistEntry("192.168.0.1")).toMatchObject({ ok: false, reason: expect.stringMatching(/not a public host/) });
  });

  it("says why: an empty entry, a misplaced wildcard, credentials", () => {
    expect(normalizeWhitelistEntry("")).toMatchObject({ ok: false, reason: expect.stringMatching(/empty/i) });
    expect(normalizeWhitelistEntry("*.*.a.com")).toMatchObject({ ok: false, reason: expect.stringMatching(/wildcard/i) });
    expect(normalizeWhitelistEntry("x@y.com")).toMatchObject({ ok: false, reason: expect.stringMatching(/user|password/i) });
    expect(normalizeWhitelistEntry("a..b")).toMatchObject({ ok: false, reason: expect.stringContaining("a..b") });
  });

  it("is idempotent: a normalized entry normalizes to itself", () => {
    for (const input of ["Example.COM.", "https://bücher.de:1/x", "*.Sub.Example.com"]) {
      const once = domainOf(input);
      expect(domainOf(once)).toBe(once);
    }
  });
});

describe("hostAllowed", () => {
  const entries = ["good.com", "*.example.com", "xn--bcher-kva.de"];

  it("admits an exact host, case-insensitively and with a trailing dot", () => {
    expect(hostAllowed("good.com", entries)).toBe(true);
    expect(hostAllowed("GOOD.com", entries)).toBe(true);
    expect(hostAllowed("good.com.", entries)).toBe(true);
    expect(hostAllowed("Good.Com.", entries)).toBe(true);
  });

  it("does not treat an exact entry as admitting its subdomains", () => {
    expect(hostAllowed("www.good.com", entries)).toBe(false);
  });

  it("admits subdomains and deeper subdomains of a *. entry, but not the apex", () => {
    expect(hostAllowed("a.example.com", entries)).toBe(true);
    expect(hostAllowed("a.b.example.com", entries)).toBe(true);
    expect(hostAllowed("A.B.Example.COM.", entries)).toBe(true);
    expect(hostAllowed("example.com", entries)).toBe(false);
  });

  it.each([
    ["evilexample.com"],
    ["evil-example.com"],
    ["example.com.evil.com"],
    ["good.com.evil.com"],
    ["evilgood.com"],
    ["good.co"],
    ["good.com.."],
    ["a..example.com"],
    [""],
    ["evil.com/good.com"],
    ["good.com@evil.com"],
  ])("refuses %j", (host) => {
    expect(hostAllowed(host, entries)).toBe(false);
  });

  it("matches IDN hosts in their punycode form (as the URL parser gives them)", () => {
    expect(hostAllowed("xn--bcher-kva.de", entries)).toBe(true);
    expect(hostAllowed(new URL("http://bücher.de/").hostname, entries)).toBe(true);
    expect(hostAllowed("bücher.de", entries)).toBe(true);
    expect(hostAllowed("xn--bcher-kva.de.evil.com", entries)).toBe(false);
  });

  it("admits nothing with an empty list", () => {
    expect(hostAllowed("good.com", [])).toBe(false);
    expect(hostAllowed("a.example.com", [])).toBe(false);
  });
});
