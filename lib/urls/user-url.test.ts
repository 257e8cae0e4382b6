import { describe, expect, it } from "vitest";
import { urlCorpus } from "../../e2e/url-corpus.ts";
import { parseCountUrl } from "./count-url.ts";
import { parseUserUrl } from "./user-url.ts";

function normalized(input: string): string {
  const result = parseUserUrl(input);
  if (!result.ok) throw new Error(`expected ${JSON.stringify(input)} to be accepted, got: ${result.reason}`);
  return result.normalized;
}

function refusal(input: string): string {
  const result = parseUserUrl(input);
  if (result.ok) throw new Error(`expected ${JSON.stringify(input)} to be refused, got ${result.normalized}`);
  return result.reason;
}

describe("parseUserUrl: a bare host or host/path is that page over HTTPS", () => {
  it.each([
    ["example.org", "https://example.org/"],
    ["example.org/page", "https://example.org/page"],
    ["  www.Example.org/Page?q=1#top \n", "https://www.example.org/Page?q=1"],
    ["example.org:8080/page", "https://example.org:8080/page"],
    ["bücher.de/katalog", "https://xn--bcher-kva.de/katalog"],
    ["8.8.8.8/dns", "https://8.8.8.8/dns"],
    ["[2606:4700:4700::1111]/x", "https://[2606:4700:4700::1111]/x"],
    ["//example.org/protocol-relative", "https://example.org/protocol-relative"],
  ])("reads %j as %s", (input, expected) => {
    expect(normalized(input)).toBe(expected);
  });

  it("keeps a URL's own scheme, and undoes extra encoding as the count rule does", () => {
    expect(normalized("http://example.org/plain")).toBe("http://example.org/plain");
    expect(normalized("HTTPS://example.org/x")).toBe("https://example.org/x");
    expect(normalized("http%3A%2F%2Fexample.org%2Fencoded")).toBe("http://example.org/encoded");
  });

  it.each(["mailto:someone@example.org", "javascript:alert(1)", "ftp://example.org/file", "http:example.org", "data:text/html,hi"])(
    "refuses %j: a scheme other than http(s), or an incomplete one, is not made https",
    (input) => {
      expect(refusal(input)).toMatch(/http:\/\/ or https:\/\//);
    },
  );

  it("refuses an email address rather than reading it as its domain's home page", () => {
    expect(refusal("someone@example.org")).toMatch(/email address/);
    expect(refusal("someone@example.org/page")).toMatch(/email address/);
  });

  it.each([["localhost/admin"], ["192.168.0.1/router"], ["intranet"], ["example"], ["exa mple.org/x"], ["not a url"]])(
    "refuses %j by the count rule once made https",
    (input) => {
      expect(refusal(input)).not.toMatch(/email address/);
    },
  );

  it("says an empty input is empty", () => {
    expect(refusal("   ")).toMatch(/empty/);
  });
});

describe("parseUserUrl agrees with the count rule", () => {
  const corpus = urlCorpus("agree.example.com");

  it("accepts what parseCountUrl accepts, in the same form, and adds only URLs written without a scheme", () => {
    const added: string[] = [];
    for (const line of corpus) {
      const strict = parseCountUrl(line);
      const user = parseUserUrl(line);
      if (strict.ok) expect(user, line).toEqual(strict);
      else if (user.ok) added.push(line);
    }
    expect(added).toEqual(["//agree.example.com/s8", "agree.example.com/s9"]);
  });

  it("reads a URL without its https:// as the URL with it, when it names no user", () => {
    let compared = 0;
    for (const line of corpus) {
      const withScheme = line.trim();
      if (!/^https:\/\//i.test(withScheme) || withScheme.includes("@")) continue;
      const strict = parseCountUrl(withScheme);
      if (!strict.ok) continue;
      expect(normalized(withScheme.slice("https://".length)), withScheme).toBe(strict.normalized);
      compared++;
    }
    expect(compared).toBeGreaterThan(100);
  });
});
