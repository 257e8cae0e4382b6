import { describe, it, expect } from "vitest";
import { storyUrlKey } from "./hackernews-match.ts";

const same = (a: string, b: string) => storyUrlKey(a) !== null && storyUrlKey(a) === storyUrlKey(b);

describe("storyUrlKey: which HN story URLs are the asked URL", () => {
  it.each([
    ["http and https", "https://example.com/a", "http://example.com/a"],
    ["host case", "https://Example.COM/a", "https://example.com/a"],
    ["one leading www.", "https://www.example.com/a", "https://example.com/a"],
    ["a trailing slash", "https://example.com/a/", "https://example.com/a"],
    ["the root with and without slash", "https://example.com/", "https://example.com"],
    ["a trailing slash before the query", "https://example.com/a/?x=1", "https://example.com/a?x=1"],
    ["the default port of either scheme", "http://example.com:80/a", "https://example.com:443/a"],
    ["a fragment", "https://example.com/a#top", "https://example.com/a"],
    ["an empty query", "https://example.com/a?", "https://example.com/a"],
    ["user info", "https://user:pw@example.com/a", "https://example.com/a"],
    ["percent-escape case", "https://example.com/a%2fb", "https://example.com/a%2Fb"],
    ["escaped unreserved characters", "https://example.com/%7Euser/%41", "https://example.com/~user/A"],
    ["escaped unreserved characters in the query", "https://example.com/a?q=%61", "https://example.com/a?q=a"],
    ["non-ASCII paths, escaped or not", "https://example.com/café", "https://example.com/caf%c3%a9"],
    ["IDN hosts and their punycode", "https://bücher.example/", "https://xn--bcher-kva.example/"],
    ["dot segments", "https://example.com/a/./b/../c", "https://example.com/a/c"],
    ["surrounding whitespace", "  https://example.com/a ", "https://example.com/a"],
    ["every rule at once", "HTTP://WWW.Example.com:80/a/?q=1#x", "https://example.com/a?q=1"],
  ])("ignores %s", (_rule, a, b) => {
    expect(same(a, b)).toBe(true);
  });

  it.each([
    ["another path on the same host", "https://example.com/a", "https://example.com/b"],
    ["path case", "https://example.com/A", "https://example.com/a"],
    ["another query", "https://example.com/a?x=1", "https://example.com/a?x=2"],
    ["a query added", "https://example.com/a", "https://example.com/a?ref=hn"],
    ["query order", "https://example.com/a?a=1&b=2", "https://example.com/a?b=2&a=1"],
    ["+ against %20 in the query", "https://example.com/a?q=a+b", "https://example.com/a?q=a%20b"],
    ["an escaped reserved character", "https://example.com/a%2Fb", "https://example.com/a/b"],
    ["another subdomain", "https://blog.example.com/a", "https://example.com/a"],
    ["www. only once", "https://www.www.example.com/a", "https://example.com/a"],
    ["a port that is not the scheme's default", "http://example.com:443/a", "https://example.com/a"],
    ["another port", "https://example.com:8443/a", "https://example.com/a"],
    ["two trailing slashes", "https://example.com/a//", "https://example.com/a"],
    ["a prefix path", "https://example.com/a", "https://example.com/a/b"],
  ])("tells apart %s", (_rule, a, b) => {
    expect(same(a, b)).toBe(false);
  });

  it.each(["", "not a url", "example.com/a", "ftp://example.com/a", "mailto:a@example.com", "javascript:alert(1)"])(
    "has no key for %j",
    (url) => {
      expect(storyUrlKey(url)).toBeNull();
    },
  );
});
