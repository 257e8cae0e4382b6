import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURE_AUDIT } from "../support/audit.ts";
import { startTestService, type TestService } from "../support/service.ts";

let svc: TestService;
let seq = 0;

beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

const unique = () => `${++seq}-${Math.random().toString(36).slice(2, 8)}`;

/** A fresh account with the whitelist set as given. */
async function accountWithWhitelist(domains: string[], enabled: boolean) {
  const account = await svc.account("business");
  await svc.accounts.setWhitelist(account.email, domains, enabled, FIXTURE_AUDIT);
  return account;
}

const count = (apiKey: string, url: string, version = "1.0") =>
  svc.get(`/v${version}/?url=${encodeURIComponent(url)}&apikey=${apiKey}`);

async function used(apiKey: string): Promise<number> {
  const res = await svc.get(`/v1.0/quota?apikey=${apiKey}`);
  expect(res.status).toBe(200);
  return (await res.json()).quota_used_today;
}

async function expectRefused(apiKey: string, url: string, host?: string) {
  const res = await count(apiKey, url);
  const body = await res.json();
  expect({ url, status: res.status, type: body.Type }).toEqual({ url, status: 403, type: "domain_not_whitelisted" });
  expect(Object.keys(body).sort()).toEqual(["Error", "Type"]);
  if (host) expect(body.Error).toContain(host);
}

async function expectServed(apiKey: string, url: string) {
  const res = await count(apiKey, url);
  const body = await res.json();
  expect({ url, status: res.status }).toEqual({ url, status: 200 });
  expect(body).toHaveProperty("Facebook");
}

describe("GET /v1.0/domain_whitelist", () => {
  it("answers the empty, disabled whitelist of a new account", async () => {
    const { apiKey } = await svc.account("free");
    const res = await svc.get(`/v1.0/domain_whitelist?apikey=${apiKey}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ domains: [], whitelist_domains_enabled: false });
  });

  it("reflects a change at once, normalized, without a restart", async () => {
    const { email, apiKey } = await svc.account("free");
    await svc.accounts.setWhitelist(email, ["Good.com", "https://*.Example.org/path", "bücher.de"], true, FIXTURE_AUDIT);
    const first = await (await svc.get(`/v1.0/domain_whitelist?apikey=${apiKey}`)).json();
    expect(first.whitelist_domains_enabled).toBe(true);
    expect([...first.domains].sort()).toEqual(["*.example.org", "good.com", "xn--bcher-kva.de"]);

    await svc.accounts.setWhitelist(email, ["other.net"], false, FIXTURE_AUDIT);
    expect(await (await svc.get(`/v1.0/domain_whitelist?apikey=${apiKey}`)).json()).toEqual({
      domains: ["other.net"],
      whitelist_domains_enabled: false,
    });
  });

  it("refuses requests without a valid key", async () => {
    const missing = await svc.get("/v1.0/domain_whitelist");
    expect(missing.status).toBe(401);
    expect((await missing.json()).Type).toBe("missing_api_key");
    const wrong = await svc.get(`/v1.0/domain_whitelist?apikey=${"0".repeat(40)}`);
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ Error: expect.any(String), Type: "invalid_api_key" });
  });
});

describe("an enforced whitelist", () => {
  let apiKey: string;
  beforeAll(async () => {
    ({ apiKey } = await accountWithWhitelist(["good.com"], true));
  });

  it("refuses an unlisted host with 403 domain_not_whitelisted, and does not count it", async () => {
    const before = await used(apiKey);
    await expectRefused(apiKey, `http://evil.com/${unique()}`, "evil.com");
    const v11 = await count(apiKey, `http://evil.com/${unique()}`, "1.1");
    expect(v11.status).toBe(403);
    expect((await v11.json()).Type).toBe("domain_not_whitelisted");
    expect(await used(apiKey)).toBe(before);
  });

  it("serves a listed host, and counts it", async () => {
    const before = await used(apiKey);
    await expectServed(apiKey, `http://good.com/${unique()}`);
    await expectServed(apiKey, `https://good.com/a?b=${unique()}`);
    expect(await used(apiKey)).toBe(before + 2);
  });

  it("admits the listed host in mixed case and with a trailing dot", async () => {
    await expectServed(apiKey, "http://GOOD.com./");
    await expectServed(apiKey, `HTTP://Good.COM/${unique()}`);
  });

  it("does not admit subdomains of an exact entry", async () => {
    await expectRefused(apiKey, `http://www.good.com/${unique()}`);
  });

  it.each([
    ["http://good.com@evil.com/"],
    ["http://good.com:pw@evil.com/x"],
    ["http://good.com.evil.com/"],
    ["http://evilgood.com/"],
    ["http://evil.com/?good.com"],
    ["http://evil.com/good.com"],
    ["http://evil.com#good.com"],
    ["http://evil.com\\@good.com"],
    ["http://evil.com\\good.com"],
    ["http://evil.com%2F@good.com"],
    ["http://evil.com%23@good.com"],
    ["http://good.com%2Eevil.com/"],
  ])("refuses the bypass %s unless the URL parser reads its host as good.com", async (url) => {
    const before = await used(apiKey);
    const res = await count(apiKey, url);
    const body = await res.json();
    // Whatever the service makes of it, it may only be served when the host it counts is the listed one.
    let host: string | null = null;
    try {
      host = new URL(url).hostname.replace(/\.$/, "");
    } catch {
      host = null;
    }
    if (host === "good.com") {
      expect(res.status).toBe(200);
    } else {
      expect([400, 403]).toContain(res.status);
      expect(["domain_not_whitelisted", "invalid_url"]).toContain(body.Type);
      expect(await used(apiKey)).toBe(before);
    }
  });

  it("names the host it refused, as parsed (credentials are not the host)", async () => {
    await expectRefused(apiKey, "http://good.com@evil.com/", "evil.com");
  });

  it("refuses unlisted hosts sent unencoded and twice-encoded as well", async () => {
    const raw = await svc.get(`/v1.0/?url=http://good.com@evil.com/x?y=good.com&apikey=${apiKey}`);
    expect(raw.status).toBe(403);
    const twice = await svc.get(
      `/v1.0/?url=${encodeURIComponent(encodeURIComponent("http://evil.com/x"))}&apikey=${apiKey}`,
    );
    expect(twice.status).toBe(403);
    const twiceGood = await svc.get(
      `/v1.0/?url=${encodeURIComponent(encodeURIComponent(`http://good.com/${unique()}`))}&apikey=${apiKey}`,
    );
    expect(twiceGood.status).toBe(200);
  });

  it("refuses an unlisted host in JSONP with status 200 and the error in the callback", async () => {
    const res = await svc.get(`/v1.0/?url=${encodeURIComponent("http://evil.com/")}&apikey=${apiKey}&callback=cb`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/cb\(\{"Error":".*","Type":"domain_not_whitelisted"\}\);/);
  });

  it("drops unlisted hosts from a bulk job without an error", async () => {
    const res = await svc.get(`/v1.0/bulk?apikey=${apiKey}`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: `http://good.com/bulk-${unique()}\nhttp://evil.com/x\nhttp://good.com@evil.com/\nhttp://good.com.evil.com/\n`,
    });
    expect(res.status).toBe(200);
    expect((await res.json()).count).toBe(1);
    const none = await svc.get(`/v1.0/bulk?apikey=${apiKey}`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "http://evil.com/x\n",
    });
    expect(none.status).toBe(400);
    expect((await none.json()).Type).toBe("no_valid_urls");
  });
});

describe("wildcard entries", () => {
  it("*.good.com admits subdomains at any depth but not good.com itself, nor look-alikes", async () => {
    const { apiKey } = await accountWithWhitelist(["*.good.com"], true);
    await expectServed(apiKey, `http://a.good.com/${unique()}`);
    await expectServed(apiKey, `http://a.b.good.com/${unique()}`);
    await expectServed(apiKey, `http://A.B.Good.Com./${unique()}`);
    await expectRefused(apiKey, `http://good.com/${unique()}`);
    await expectRefused(apiKey, `http://evilgood.com/${unique()}`);
    await expectRefused(apiKey, `http://a.good.com.evil.com/${unique()}`);
  });

  it("good.com and *.good.com together admit both", async () => {
    const { apiKey } = await accountWithWhitelist(["good.com", "*.good.com"], true);
    await expectServed(apiKey, `http://good.com/${unique()}`);
    await expectServed(apiKey, `http://www.good.com/${unique()}`);
  });
});

describe("whitelist state", () => {
  it("enabled with an empty list refuses everything", async () => {
    const { apiKey } = await accountWithWhitelist([], true);
    expect(await (await svc.get(`/v1.0/domain_whitelist?apikey=${apiKey}`)).json()).toEqual({
      domains: [],
      whitelist_domains_enabled: true,
    });
    await expectRefused(apiKey, "http://good.com/");
    await expectRefused(apiKey, "https://example.com/");
    expect(await used(apiKey)).toBe(0);
  });

  it("disabled admits everything, whatever is listed", async () => {
    const { apiKey } = await accountWithWhitelist(["good.com"], false);
    await expectServed(apiKey, `http://evil.com/${unique()}`);
    await expectServed(apiKey, `http://good.com/${unique()}`);
  });

  it("takes effect on the next request when enabled, then disabled again", async () => {
    const { email, apiKey } = await svc.account("business");
    const url = `http://evil.com/${unique()}`;
    await expectServed(apiKey, url);
    await svc.accounts.setWhitelist(email, ["good.com"], true, FIXTURE_AUDIT);
    await expectRefused(apiKey, url);
    await svc.accounts.setWhitelist(email, ["good.com", "evil.com"], true, FIXTURE_AUDIT);
    await expectServed(apiKey, url);
    await svc.accounts.setWhitelist(email, [], false, FIXTURE_AUDIT);
    await expectServed(apiKey, `http://other.org/${unique()}`);
  });
});

describe("IDN entries", () => {
  it("bücher.de admits the host in Unicode and in punycode", async () => {
    const { apiKey } = await accountWithWhitelist(["bücher.de"], true);
    const listed = await (await svc.get(`/v1.0/domain_whitelist?apikey=${apiKey}`)).json();
    expect(listed.domains).toEqual(["xn--bcher-kva.de"]);
    await expectServed(apiKey, "http://bücher.de/");
    await expectServed(apiKey, "http://xn--bcher-kva.de/");
    await expectServed(apiKey, `http://BÜCHER.de/${unique()}`);
    await expectRefused(apiKey, "http://bucher.de/");
  });

  it("an entry given in punycode admits the Unicode host", async () => {
    const { apiKey } = await accountWithWhitelist(["xn--bcher-kva.de"], true);
    await expectServed(apiKey, `http://bücher.de/${unique()}`);
  });
});
