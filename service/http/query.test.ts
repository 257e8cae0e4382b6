import { describe, expect, it } from "vitest";
import { canonicalPath, isApiRequest, parsedTarget } from "./paths.ts";
import { apiKeyParam, parseQuery, plainRequestQuery } from "./query.ts";

describe("parseQuery", () => {
  it("decodes ordinary parameters, + as a space", () => {
    const params = parseQuery("url=http%3A%2F%2Fa.com%2Fx%3Fy%3D1&apikey=K&callback=cb&q=a+b");
    expect(params.get("url")).toBe("http://a.com/x?y=1");
    expect(params.get("apikey")).toBe("K");
    expect(params.get("callback")).toBe("cb");
    expect(params.get("q")).toBe("a b");
  });

  it("keeps the first of repeated parameters", () => {
    expect(parseQuery("apikey=first&apikey=second").get("apikey")).toBe("first");
  });

  it("reads a parameter without = as empty", () => {
    const params = parseQuery("force&apikey=K");
    expect(params.get("force")).toBe("");
    expect(params.get("apikey")).toBe("K");
  });

  it("does not throw on bytes that are not UTF-8 or on broken escapes", () => {
    expect(() => parseQuery("url=%FF%FE&apikey=%C3%28")).not.toThrow();
    const params = parseQuery("url=%FF%FE&apikey=K&x=%&y=%E0%A4%A");
    expect(params.get("url")).toBe("\uFFFD\uFFFD");
    expect(params.get("apikey")).toBe("K");
    expect(params.get("x")).toBe("%");
  });

  it("puts back the query parameters of a url sent without encoding", () => {
    const params = parseQuery("url=http://a.com/x?y=1&z=2&apikey=K&callback=cb");
    expect(params.get("url")).toBe("http://a.com/x?y=1&z=2");
    expect(params.get("apikey")).toBe("K");
    expect(params.get("callback")).toBe("cb");
    expect(params.has("y")).toBe(false);
    expect(params.has("z")).toBe(false);
  });

  it("keeps API parameters that come after a raw url as the API's", () => {
    const params = parseQuery("url=https://a.com/?p=1&custom_ttl=5&_=123&force=1&bulk_id=B&apiKey=K");
    expect(params.get("url")).toBe("https://a.com/?p=1");
    expect(params.get("custom_ttl")).toBe("5");
    expect(params.get("_")).toBe("123");
    expect(params.get("force")).toBe("1");
    expect(params.get("bulk_id")).toBe("B");
    expect(apiKeyParam(params)).toBe("K");
  });

  it("does not give parameters before the url to the url", () => {
    const params = parseQuery("apikey=K&other=1&url=http://a.com/x");
    expect(params.get("url")).toBe("http://a.com/x");
    expect(params.get("other")).toBe("1");
  });

  it("decodes a twice-encoded url once (the count URL parser undoes the rest)", () => {
    const url = "http://a.com/x?y=1";
    const params = parseQuery(`url=${encodeURIComponent(encodeURIComponent(url))}&apikey=K`);
    expect(params.get("url")).toBe(encodeURIComponent(url));
    expect(params.get("apikey")).toBe("K");
  });

  it("returns an empty map for an empty query", () => {
    expect(parseQuery("").size).toBe(0);
    expect(parseQuery("&&&").size).toBe(0);
  });
});

describe("plainRequestQuery (v2)", () => {
  it("refuses a parameter sent twice, also with the same value, where v1's reading keeps the first", () => {
    expect(() => plainRequestQuery("/v2/events?limit=1&limit=2")).toThrow(/^limit: sent more than once/);
    expect(() => plainRequestQuery("/v2/events?type=a&type=a")).toThrow(/^type: sent more than once/);
    expect(() => plainRequestQuery("/v2/events?cursor&cursor=")).toThrow(/^cursor: sent more than once/);
    expect(parseQuery("limit=1&limit=2").get("limit")).toBe("1");
    expect([...plainRequestQuery("/v2/events?limit=1&type=a&&apiKey=K&apikey=K")]).toEqual([["limit", "1"], ["type", "a"], ["apiKey", "K"], ["apikey", "K"]]);
  });
});

describe("apiKeyParam", () => {
  it("reads apikey, or apiKey as one client sends it", () => {
    expect(apiKeyParam(parseQuery("apikey=lower"))).toBe("lower");
    expect(apiKeyParam(parseQuery("apiKey=camel"))).toBe("camel");
    expect(apiKeyParam(parseQuery("apikey=lower&apiKey=camel"))).toBe("lower");
  });

  it("is undefined when there is no key or it is empty", () => {
    expect(apiKeyParam(parseQuery("url=x"))).toBeUndefined();
    expect(apiKeyParam(parseQuery("apikey="))).toBeUndefined();
    expect(apiKeyParam(parseQuery("APIKEY=K"))).toBeUndefined();
  });
});

describe("canonicalPath", () => {
  it.each([
    ["/v1.0//url", "/v1.0/url"],
    ["/v1.0/", "/v1.0"],
    ["/v1.0", "/v1.0"],
    ["/url", "/url"],
    ["/url/", "/url"],
    ["/bulk/", "/bulk"],
    ["//v1.1///bulk//", "/v1.1/bulk"],
    ["/", "/"],
    ["//", "/"],
  ])("%s → %s", (input, expected) => {
    expect(canonicalPath(input)).toBe(expected);
  });
});

describe("isApiRequest", () => {
  it.each([
    "/v1.0//url",
    "/v1.0/",
    "/v1.0",
    "/v1.1/",
    "/url",
    "/url/",
    "/bulk",
    "/bulk/",
    "/v1.0/bulk",
    "/v1.0/status/",
    // The original service's root forms.
    "/?url=https%3A%2F%2Fexample.com%2F&apikey=K",
    "/?apikey=K",
    "/?apiKey=K&url=x",
    "//?url=x",
    "/quota?apikey=K",
    "/get_quota?apikey=K",
    "/usage",
    "/domain_whitelist/",
    "/status",
    "/v2/counts",
    "/v2/",
    "/v2/openapi.json",
  ])("%s is the API's", (target) => {
    expect(isApiRequest(target)).toBe(true);
  });

  it.each(["/v1.2", "/v1.2/", "/v1.00", "/v1.0x", "/V1.0/", "/v20/", "/v2x", "/dashboard", "/", "/?", "/?days=7", "/?urls=x", "/?xurl=1", "/urls", "/bulkx", "/api/v1.0/", "/quotas", "/dashboard?url=x"])(
    "%s is not the API's",
    (target) => {
      expect(isApiRequest(target)).toBe(false);
    },
  );
});

describe("parsedTarget", () => {
  /** How Hono's Node adapter reads a target: a URL on the request's host, serialized again. */
  const asUrl = (target: string) => new URL(`http://host.example${target}`).href.slice("http://host.example".length);

  it.each([
    ["/v1.0/?url=https%3A%2F%2Fexample.com%2Fa&apikey=K", "/v1.0/?url=https%3A%2F%2Fexample.com%2Fa&apikey=K"],
    ["/x/../v1.1/?url=a", "/v1.1/?url=a"],
    ["/v1.0/%2e%2E/url?apikey=K", "/url?apikey=K"],
    ["/v1.0/./?url=a", "/v1.0/?url=a"],
    ["/v1.0/?url=https://a.com/it's\"quoted\"", "/v1.0/?url=https://a.com/it%27s%22quoted%22"],
    ["/v1.0/?url=https://a.com/caf\u00e9", "/v1.0/?url=https://a.com/caf%C3%A9"],
  ])("%s reads as %s", (target, expected) => {
    expect(parsedTarget(target)).toBe(expected);
  });

  it("reads every target as a URL parser does, whether it takes the shortcut or not", () => {
    const targets = [
      "/", "/?", "//v1.0//?url=x", "/v1.0/...", "/.well-known/x", "/v1.0/?url=https://a.com/./x&apikey=K",
      "/v1.0/?url=https://a.com/x?y=1&z=2&apikey=K", "/v1.0/?url=a#frag", "/a b", "/{x}|^`<>", "/v1.0/?q=%zz&r=%",
      "/%2e", "/.%2E/", "/v1.0/..?x", "/~user/!$&()*+,;=:@",
    ];
    // And characters drawn from a fixed pseudo-random sequence, so a character the shortcut lets through wrongly shows up.
    const alphabet = "abc/.?%2eE#&='\"<>`{}|^~!$()*+,;:@ \u00e9";
    let seed = 1;
    const next = () => (seed = (seed * 48271) % 2147483647) % alphabet.length;
    for (let i = 0; i < 2000; i++) {
      let target = "/";
      for (let j = 0; j < 12; j++) target += alphabet[next()];
      targets.push(target);
    }
    for (const target of targets) expect(parsedTarget(target), target).toBe(asUrl(target));
  });
});
