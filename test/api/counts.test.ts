import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { deriveCounts } from "../../service/sandbox/derive-counts.ts";
import { expectedFacebook } from "../support/expected-counts.ts";
import { startTestService, type TestService } from "../support/service.ts";

let svc: TestService;
let key: string;
let dedicatedKey: string;
let seq = 0;

/** A URL no other test has asked for, so cache state never leaks between tests. */
const freshUrl = (label = "page") => `https://example.com/${label}-${++seq}-${Math.random().toString(36).slice(2, 8)}`;
const q = (url: string, apiKey = key, extra = "") => `?url=${encodeURIComponent(url)}&apikey=${apiKey}${extra}`;

const NULL_FACEBOOK = {
  total_count: null,
  comment_count: null,
  reaction_count: null,
  share_count: null,
  comment_plugin_count: null,
};

beforeAll(async () => {
  svc = await startTestService();
  key = (await svc.account("business")).apiKey;
  dedicatedKey = (await svc.account("dedicated")).apiKey;
});
afterAll(() => svc.close());
beforeEach(() => svc.resetSandbox());

describe("count object", () => {
  it("v1.0 answers every v1.0 key, the networks' real counts, and total_count as the sum of the parts", async () => {
    const url = freshUrl();
    const res = await svc.get(`/v1.0/${q(url)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const body = await res.json();
    expect(Object.keys(body)).toEqual(["StumbleUpon", "Pinterest", "LinkedIn", "Facebook", "GooglePlusOne"]);
    expect(body).toEqual({
      StumbleUpon: null,
      Pinterest: deriveCounts(url).pinterest,
      LinkedIn: null,
      Facebook: expectedFacebook(url),
      GooglePlusOne: null,
    });
  });

  it("v1.1 answers only the live networks", async () => {
    const url = freshUrl();
    const body = await (await svc.get(`/v1.1/${q(url)}`)).json();
    expect(body).toEqual({ Pinterest: deriveCounts(url).pinterest, Facebook: expectedFacebook(url) });
  });

  it("reports a real zero as 0 and a network that did not report as null", async () => {
    let zeroUrl = freshUrl("zero");
    while (deriveCounts(zeroUrl).pinterest !== 0 || deriveCounts(zeroUrl).facebook.share_count !== 0) {
      zeroUrl = freshUrl("zero");
    }
    const zero = await (await svc.get(`/v1.0/${q(zeroUrl)}`)).json();
    expect(zero.Pinterest).toBe(0);
    expect(zero.Facebook.total_count).toBe(0);

    await svc.knobs({ facebook: { mode: "fail" }, pinterest: { mode: "dash" } });
    const failed = await (await svc.get(`/v1.0/${q(freshUrl())}`)).json();
    expect(failed.Pinterest).toBeNull();
    expect(failed.Facebook).toEqual(NULL_FACEBOOK);
  });

  it("says the data came from the sandbox", async () => {
    const res = await svc.get(`/v1.0/${q(freshUrl())}`);
    expect(res.headers.get("x-sharecount-sandbox")).toBe("true");
  });
});

describe("request shapes real clients send", () => {
  it.each([
    ["/v1.0/", "1.0"],
    ["/v1.0", "1.0"],
    ["/url", "1.0"],
    ["/url/", "1.0"],
    ["/v1.0//url", "1.0"],
    ["/v1.1/", "1.1"],
    ["/v1.1", "1.1"],
  ])("%s answers the v%s count object", async (path, version) => {
    const url = freshUrl();
    const res = await svc.get(`${path}${q(url)}`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(
      version === "1.0"
        ? ["Facebook", "GooglePlusOne", "LinkedIn", "Pinterest", "StumbleUpon"]
        : ["Facebook", "Pinterest"],
    );
  });

  it("accepts apiKey in camelCase", async () => {
    const res = await svc.get(`/v1.0/?url=${encodeURIComponent(freshUrl())}&apiKey=${key}`);
    expect(res.status).toBe(200);
  });

  it("takes the url encoded once, encoded twice, or not encoded at all", async () => {
    const url = `${freshUrl()}?q=1&lang=en`;
    const expected = deriveCounts(url).pinterest;
    const once = await (await svc.get(`/v1.1/?url=${encodeURIComponent(url)}&apikey=${key}`)).json();
    const twice = await (await svc.get(`/v1.1/?url=${encodeURIComponent(encodeURIComponent(url))}&apikey=${key}`)).json();
    const raw = await (await svc.get(`/v1.1/?url=${url}&apikey=${key}`)).json();
    expect(once.Pinterest).toBe(expected);
    expect(twice.Pinterest).toBe(expected);
    expect(raw.Pinterest).toBe(expected);
    expect((await svc.stats()).pinterestByUrl[url]).toBe(1);
  });

  it("counts one normalized URL for case, fragment and credential variants", async () => {
    const path = `/same-${Math.random().toString(36).slice(2)}`;
    for (const variant of [`https://EXAMPLE.com${path}`, `https://example.com${path}#top`, `https://u:p@example.com${path}`]) {
      expect((await svc.get(`/v1.1/${q(variant)}`)).status).toBe(200);
    }
    expect((await svc.stats()).facebookByUrl[`https://example.com${path}`]).toBe(1);
  });

  it("allows any origin to read the answers (CORS), including the quota header", async () => {
    const res = await svc.get(`/v1.0/${q(freshUrl())}`, { headers: { Origin: "https://blog.example.org" } });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-expose-headers")).toMatch(/X-Quota-Remaining/i);
    const preflight = await svc.get("/v1.0/bulk", {
      method: "OPTIONS",
      headers: { Origin: "https://a.example", "Access-Control-Request-Method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-methods")).toMatch(/POST/);
  });
});

describe("the Facebook object", () => {
  const FIVE = ["comment_count", "comment_plugin_count", "reaction_count", "share_count", "total_count"];

  it("has exactly the interface's five fields on v1.0 and v1.1, reported or not (typed clients decode it strictly)", async () => {
    let withOg = freshUrl("og");
    while (!deriveCounts(withOg).ogObject) withOg = freshUrl("og");
    for (const version of ["v1.0", "v1.1"]) {
      const body = await (await svc.get(`/${version}/${q(withOg)}`)).json();
      expect(Object.keys(body.Facebook).sort(), version).toEqual(FIVE);
    }
    await svc.knobs({ facebook: { mode: "fail" } });
    const failed = await (await svc.get(`/v1.0/${q(freshUrl())}`)).json();
    expect(Object.keys(failed.Facebook).sort()).toEqual(FIVE);
  });
});

describe("JSONP", () => {
  it("wraps the v1.0 count object in the callback, as script, with nosniff", async () => {
    const url = freshUrl();
    const res = await svc.get(`/v1.0/${q(url, key, "&callback=jQuery1234_5678.done")}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/javascript/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const text = await res.text();
    const match = /^\/\*\*\/ jQuery1234_5678\.done\((.*)\);$/s.exec(text);
    expect(match).not.toBeNull();
    expect(JSON.parse(match![1]!).Pinterest).toBe(deriveCounts(url).pinterest);
  });

  it("answers errors with HTTP 200 inside the callback", async () => {
    const res = await svc.get(`/v1.0/${q(freshUrl(), "not-a-key", "&callback=cb")}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(
      `/**/ cb(${JSON.stringify({ Error: "The API key is not valid (it may have been revoked or rolled).", Type: "invalid_api_key" })});`,
    );
  });

  it("refuses jQuery's cache-busting parameter on JSONP with no_jquery_cachebusting, HTTP 200, and counts nothing", async () => {
    const before = await (await svc.get(`/v1.0/quota?apikey=${key}`)).json();
    const res = await svc.get(`/v1.0/${q(freshUrl(), key, "&callback=jQuery_1&_=1700000000000")}`);
    expect(res.status).toBe(200);
    const body = JSON.parse(/^\/\*\*\/ jQuery_1\((.*)\);$/s.exec(await res.text())![1]!);
    expect(body.Type).toBe("no_jquery_cachebusting");
    const after = await (await svc.get(`/v1.0/quota?apikey=${key}`)).json();
    expect(after.quota_used_today).toBe(before.quota_used_today);
  });

  it("lets plain JSON requests carry _ (XHR cache busting is harmless there)", async () => {
    expect((await svc.get(`/v1.0/${q(freshUrl(), key, "&_=123")}`)).status).toBe(200);
  });

  it("takes the long callback names jQuery builds from a page URL (identifiers up to 1,024 characters)", async () => {
    // sc_ and the page URL's letters and digits: what a jQuery snippet names its callback on a long page.
    const page = `https://blog.example.com/${"2026/11/a-very-long-article-title-about-share-counts-".repeat(12)}`;
    const callback = `sc_${page.replace(/\W/g, "")}`.slice(0, 1024);
    expect(callback.length).toBeGreaterThan(500);
    const url = freshUrl();
    const res = await svc.get(`/v1.0/${q(url, key, `&callback=${callback}`)}`);
    expect(res.status).toBe(200);
    const match = new RegExp(`^/\\*\\*/ ${callback}\\((.*)\\);$`, "s").exec(await res.text());
    expect(JSON.parse(match![1]!).Pinterest).toBe(deriveCounts(url).pinterest);
  });

  it("answers JSONP on GET /v1.1/ as on v1.0, with the v1.1 object", async () => {
    const url = freshUrl();
    const res = await svc.get(`/v1.1/${q(url, key, "&callback=cb")}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/javascript/);
    const body = JSON.parse(/^\/\*\*\/ cb\((.*)\);$/s.exec(await res.text())![1]!);
    expect(body).toEqual({ Pinterest: deriveCounts(url).pinterest, Facebook: expectedFacebook(url) });
  });

  it("refuses callbacks that are not JavaScript names, without wrapping them", async () => {
    for (const callback of ["alert(1)", "a-b", "1abc", "a..b", "x".repeat(1025), `${"a".repeat(70)}.${"b".repeat(70)}`]) {
      const res = await svc.get(`/v1.0/${q(freshUrl(), key, `&callback=${encodeURIComponent(callback)}`)}`);
      expect(res.status).toBe(400);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect((await res.json()).Type).toBe("invalid_callback");
    }
  });
});

describe("cache", () => {
  it("serves repeated queries from the cache without calling the networks again, and still counts them", async () => {
    const url = freshUrl();
    const first = await svc.get(`/v1.0/${q(url)}`);
    const second = await svc.get(`/v1.0/${q(url)}`);
    expect(first.headers.get("x-sharecount-cache")).toBe("MISS");
    expect(second.headers.get("x-sharecount-cache")).toBe("HIT");
    expect(Number(second.headers.get("x-quota-remaining"))).toBe(Number(first.headers.get("x-quota-remaining")) - 1);
    const maxAge = Number(/max-age=(\d+)/.exec(second.headers.get("cache-control") ?? "")![1]);
    expect(maxAge).toBeGreaterThan(1100);
    expect(maxAge).toBeLessThanOrEqual(1200);
    expect(Date.parse(second.headers.get("expires")!)).toBeGreaterThan(Date.now() + 1000 * 1000);
    const stats = await svc.stats();
    expect(stats.facebookByUrl[url]).toBe(1);
    expect(stats.pinterestByUrl[url]).toBe(1);
  });

  it("shares one upstream call between concurrent queries for the same uncached URL", async () => {
    await svc.knobs({ facebook: { latencyMs: 300 }, pinterest: { latencyMs: 300 } });
    const url = freshUrl();
    const answers = await Promise.all(Array.from({ length: 40 }, () => svc.get(`/v1.1/${q(url)}`)));
    expect(answers.every((r) => r.status === 200)).toBe(true);
    const stats = await svc.stats();
    expect(stats.facebookByUrl[url]).toBe(1);
    expect(stats.pinterestByUrl[url]).toBe(1);
  });
});

describe("custom_ttl", () => {
  it("is for the dedicated plan only", async () => {
    const res = await svc.get(`/v1.0/${q(freshUrl(), key, "&custom_ttl=60")}`);
    expect(res.status).toBe(403);
    expect((await res.json()).Type).toBe("custom_ttl_not_allowed");
  });

  it("0 disables caching: every query asks the networks and the answer says not to cache it", async () => {
    const url = freshUrl();
    await svc.get(`/v1.0/${q(url, dedicatedKey)}`);
    const res = await svc.get(`/v1.0/${q(url, dedicatedKey, "&custom_ttl=0")}`);
    await svc.get(`/v1.0/${q(url, dedicatedKey, "&custom_ttl=0")}`);
    expect(res.headers.get("cache-control")).toMatch(/no-store/);
    expect(res.headers.get("x-sharecount-cache")).toBe("BYPASS");
    expect((await svc.stats()).facebookByUrl[url]).toBe(3);
  });

  it("is honoured on v1.1 as on v1.0: custom_ttl=0 fetches again", async () => {
    const url = freshUrl();
    await svc.get(`/v1.1/${q(url, dedicatedKey, "&custom_ttl=0")}`);
    const res = await svc.get(`/v1.1/${q(url, dedicatedKey, "&custom_ttl=0")}`);
    expect(res.headers.get("x-sharecount-cache")).toBe("BYPASS");
    expect((await svc.stats()).facebookByUrl[url]).toBe(2);
  });

  it("sets the cache time of the answer and of the service's cache for that URL", async () => {
    const url = freshUrl();
    const res = await svc.get(`/v1.0/${q(url, dedicatedKey, "&custom_ttl=60")}`);
    expect(res.headers.get("cache-control")).toBe("public, max-age=60");
    const expires = Date.parse(res.headers.get("expires")!);
    expect(expires).toBeGreaterThan(Date.now() + 50_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 61_000);
    const again = await svc.get(`/v1.0/${q(url, dedicatedKey)}`);
    expect(again.headers.get("x-sharecount-cache")).toBe("HIT");
    expect(Number(/max-age=(\d+)/.exec(again.headers.get("cache-control")!)![1])).toBeLessThanOrEqual(60);
  });

  it("a shorter custom_ttl than the cached answer's age fetches again", async () => {
    const url = freshUrl();
    await svc.get(`/v1.0/${q(url, dedicatedKey)}`);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const res = await svc.get(`/v1.0/${q(url, dedicatedKey, "&custom_ttl=1")}`);
    expect(res.headers.get("x-sharecount-cache")).toBe("MISS");
    expect((await svc.stats()).facebookByUrl[url]).toBe(2);
  });
});

describe("network failures and throttling", () => {
  it("serves the last known count when a network fails later (stale-if-error), and says so", async () => {
    const url = freshUrl();
    const fresh = await (await svc.get(`/v1.0/${q(url, dedicatedKey)}`)).json();
    await svc.knobs({ facebook: { mode: "fail" }, pinterest: { mode: "fail" } });
    const res = await svc.get(`/v1.0/${q(url, dedicatedKey, "&custom_ttl=0")}`);
    const body = await res.json();
    expect(body.Facebook).toEqual(fresh.Facebook);
    expect(body.Pinterest).toBe(fresh.Pinterest);
    expect(res.headers.get("x-sharecount-stale")).toMatch(/^Facebook=\d+, Pinterest=\d+$/);
  });

  it("backs off after a throttling answer instead of calling the network again", async () => {
    const backoff = await startTestService();
    try {
      const k = (await backoff.account("business")).apiKey;
      await backoff.knobs({ facebook: { mode: "throttle" } });
      const first = await (await backoff.get(`/v1.1/${q(freshUrl(), k)}`)).json();
      expect(first.Facebook).toEqual(NULL_FACEBOOK);
      expect(first.Pinterest).not.toBeNull();
      await backoff.knobs({ facebook: { mode: "ok" } });
      const second = await (await backoff.get(`/v1.1/${q(freshUrl(), k)}`)).json();
      expect(second.Facebook).toEqual(NULL_FACEBOOK);
      const stats = await backoff.stats();
      expect(stats.facebook.calls).toBe(1);
      expect(stats.pinterest.calls).toBe(2);
    } finally {
      await backoff.close();
    }
  });

  it("keeps Facebook within its per-URL budget and answers from the last known count beyond it", async () => {
    const budget = await startTestService({ FACEBOOK_CALLS_PER_URL_PER_HOUR: "2" });
    try {
      const k = (await budget.account("dedicated")).apiKey;
      const url = freshUrl();
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await budget.get(`/v1.1/${q(url, k, "&custom_ttl=0")}`));
      expect((await budget.stats()).facebookByUrl[url]).toBe(2);
      const last = answers[3]!;
      expect((await last.json()).Facebook).toEqual(expectedFacebook(url));
      expect(last.headers.get("x-sharecount-stale")).toMatch(/^Facebook=\d+$/);
    } finally {
      await budget.close();
    }
  });

  it("stops serving a last known count older than STALE_MAX_AGE_SECONDS", async () => {
    const bounded = await startTestService({ STALE_MAX_AGE_SECONDS: "1" });
    try {
      const k = (await bounded.account("dedicated")).apiKey;
      const url = freshUrl();
      await bounded.get(`/v1.1/${q(url, k)}`);
      await bounded.knobs({ pinterest: { mode: "fail" } });
      await new Promise((resolve) => setTimeout(resolve, 2100));
      const res = await bounded.get(`/v1.1/${q(url, k, "&custom_ttl=0")}`);
      expect((await res.json()).Pinterest).toBeNull();
      expect(res.headers.get("x-sharecount-stale")).toBeNull();
    } finally {
      await bounded.close();
    }
  });

  it("answers within the network timeout when a network hangs, with that network null", async () => {
    const slow = await startTestService({ NETWORK_TIMEOUT_MS: "300" });
    try {
      const k = (await slow.account("business")).apiKey;
      await slow.knobs({ facebook: { mode: "hang" } });
      const url = freshUrl();
      const body = await (await slow.get(`/v1.1/${q(url, k)}`)).json();
      expect(body.Facebook).toEqual(NULL_FACEBOOK);
      expect(body.Pinterest).toBe(deriveCounts(url).pinterest);
    } finally {
      await slow.close();
    }
  });
});
