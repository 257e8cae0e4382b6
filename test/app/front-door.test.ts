import { createHash, randomBytes } from "node:crypto";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdmin } from "../support/admin-cli.ts";
import { ensureDashboardBuild, startApp, type App } from "../support/app.ts";
import { rawRequest, type RawAnswer as Answer, type StreamedBody } from "../support/raw-http.ts";

/*
 * The app's front door, as `npm start` serves it: which requests reach the API and which the dashboard (the
 * original service's root forms that older clients still send), and requests no browser sends but anyone
 * can: odd request targets, forged or missing Origins, oversized and streamed bodies. Each of those gets a
 * 4xx with an error object: never a 5xx, a stack trace, or a redirect to another host.
 */

let app: App;
let apiKey: string;
let sessionCookie: string;

beforeAll(async () => {
  await ensureDashboardBuild();
  app = await startApp();
  ({ apiKey, cookie: sessionCookie } = await signedInAccount("odd@example.com", "business"));
}, 300_000);
afterAll(() => app?.close());

/** A signed-in browser's session cookie, stored as password sign-in stores it (the SHA-256 of the cookie's token). */
async function signedInAccount(email: string, plan: string): Promise<{ apiKey: string; cookie: string }> {
  const databaseUrl = `file:${path.join(app.dataDir, "app.db")}`;
  const apiKey = (await runAdmin(databaseUrl, ["account:create", "--email", email, "--plan", plan])).json.apikey as string;
  const token = randomBytes(32).toString("hex");
  const db = new Database(path.join(app.dataDir, "app.db"));
  try {
    const { id } = db.prepare<[string], { id: string }>("SELECT id FROM account WHERE email = ?").get(email)!;
    db.prepare("INSERT INTO session (id, session_token, account_id, expires, created_at, last_seen_at, user_agent) VALUES (?, ?, ?, ?, ?, ?, ?)").run(
      randomBytes(8).toString("hex"),
      createHash("sha256").update(token).digest("hex"),
      id,
      Date.now() + 86_400_000,
      Date.now(),
      Date.now(),
      "vitest",
    );
  } finally {
    db.close();
  }
  return { apiKey, cookie: `authjs.session-token=${token}` };
}

/** One request with its target sent verbatim (`*`, `http://host/path`), optionally a body streamed in chunks. */
const request = (method: string, target: string, headers: Record<string, string> = {}, body?: StreamedBody) =>
  rawRequest(app.url, method, target, headers, body);

/** A 4xx with a JSON error object and nothing that looks like a stack trace. */
function expectClean4xx(answer: Answer, status: number) {
  expect(answer.status).toBe(status);
  expect(answer.headers["content-type"]).toContain("application/json");
  expect(() => JSON.parse(answer.body)).not.toThrow();
  expect(answer.body).not.toMatch(/\bat .+\(.+:\d+:\d+\)|node_modules|\.ts:\d+/);
}

const sameOrigin = () => ({ Origin: app.url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json" });

describe("the original service's root forms, still sent by older clients (PHP, Ruby, a 2014 jQuery plugin)", () => {
  const countUrl = encodeURIComponent("https://example.com/root-form");
  const json = async (target: string) => {
    const answer = await request("GET", target);
    expect(answer.status, target).toBe(200);
    expect(answer.headers["content-type"], target).toContain("application/json");
    return JSON.parse(answer.body) as Record<string, unknown>;
  };

  it("GET /?url=…&apikey=… answers the v1.0 count object, also with apiKey and as JSONP", async () => {
    const versioned = await json(`/v1.0/?url=${countUrl}&apikey=${apiKey}`);
    expect(Object.keys(versioned)).toEqual(["StumbleUpon", "Pinterest", "LinkedIn", "Facebook", "GooglePlusOne"]);
    expect(await json(`/?url=${countUrl}&apikey=${apiKey}`)).toEqual(versioned);
    expect(await json(`/?apiKey=${apiKey}&url=${countUrl}`)).toEqual(versioned);
    const jsonp = await request("GET", `/?url=${countUrl}&apikey=${apiKey}&callback=sc_cb`);
    expect(jsonp.body).toBe(`/**/ sc_cb(${JSON.stringify(versioned)});`);
    // A key without a URL is an API call too: its error, not the dashboard.
    expect(await request("GET", `/?apikey=${apiKey}`)).toMatchObject({ status: 400 });
  });

  it("GET /quota and /get_quota answer the quota, and the other account endpoints answer at the root as on v1.0", async () => {
    const quota = await json(`/v1.0/quota?apikey=${apiKey}`);
    expect(await json(`/quota?apikey=${apiKey}`)).toEqual(quota);
    expect(await json(`/get_quota?apikey=${apiKey}`)).toEqual(quota);
    expect(await json(`/usage?apikey=${apiKey}`)).toEqual(await json(`/v1.0/usage?apikey=${apiKey}`));
    expect(await json(`/domain_whitelist?apikey=${apiKey}`)).toEqual(await json(`/v1.0/domain_whitelist?apikey=${apiKey}`));
    expect(await json("/status")).toEqual({ status: "up" });
  });

  it("people visiting / still get the dashboard", async () => {
    for (const target of ["/", "/?utm_source=newsletter", "/?days=7"]) {
      const answer = await request("GET", target, { Accept: "text/html" });
      expect(answer.status, target).toBeLessThan(400);
      expect(answer.headers["content-type"] ?? "text/html", target).toContain("text/html");
    }
  });
});

describe("Host and forwarded headers that name no host or scheme", () => {
  const targets = ["/", "/dashboard", "/sign-in", "/api/dashboard/overview", "/api/auth/session"];

  it.each([
    { Host: "a b" },
    { Host: "[::1" },
    { Host: "evil.example/path" },
    { Host: "user@evil.example" },
    { Host: "a.example, b.example" },
    { "X-Forwarded-Host": "a b" },
    { "X-Forwarded-Host": "evil.example/path, b.example" },
    { "X-Forwarded-Proto": "a b" },
    { "X-Forwarded-Proto": "https://x" },
    { "X-Forwarded-Proto": "ftp" },
  ] as Record<string, string>[])("%j is a 400 on any page, not a 500", async (headers) => {
    for (const target of targets) {
      const answer = await request("GET", target, headers);
      expect(answer.status, `${JSON.stringify(headers)} ${target}`).toBe(400);
      expectClean4xx(answer, 400);
    }
  });

  it("takes the first of the values a chain of proxies appended: what the browser used", async () => {
    const headers = { "X-Forwarded-Host": "sharecount.example, internal.example:8080", "X-Forwarded-Proto": "https, http" };
    for (const target of targets) {
      const { status } = await request("GET", target, headers);
      expect(status === 400 || status >= 500, `${target}: ${status}`).toBe(false);
    }
    const landing = await request("GET", "/", headers);
    expect(landing.body).toContain("https://sharecount.example/v1.1/?url=");
  });
});

describe("Auth.js's callback-url cookie, which the client writes", () => {
  it.each(["%", "not a url", "http://[", "//evil.example/", "https://evil.example/x"])("%j never makes an auth route fail or leave the site", async (value) => {
    for (const cookie of [`authjs.callback-url=${encodeURIComponent(value)}`, `authjs.callback-url=${encodeURIComponent(value)}; ${sessionCookie}`]) {
      for (const target of ["/api/auth/session", "/api/auth/providers", "/api/auth/csrf", "/api/auth/signin"]) {
        const answer = await request("GET", target, { Cookie: cookie });
        expect(answer.status, `${target} with ${cookie}`).toBeLessThan(400);
        const written = answer.headers["set-cookie"] ?? "";
        expect(written, target).not.toContain("evil.example");
        if (answer.headers.location) expect(new URL(answer.headers.location, app.url).host, target).toBe(`127.0.0.1:${app.port}`);
      }
    }
    const session = await request("GET", "/api/auth/session", { Cookie: `authjs.callback-url=${encodeURIComponent(value)}; ${sessionCookie}` });
    expect(JSON.parse(session.body)).toMatchObject({ user: { email: "odd@example.com" } });
  });

  it.each(["%", "not a url", "javascript:alert(1)"])("a callbackUrl parameter %j is a 400, not a 500", async (value) => {
    for (const target of ["/api/auth/signin", "/api/auth/signout", "/api/auth/session"]) {
      expectClean4xx(await request("GET", `${target}?callbackUrl=${encodeURIComponent(value)}`), 400);
    }
  });

  it("a posted callbackUrl that is no URL sends the browser home, not a 500", async () => {
    const csrf = await request("GET", "/api/auth/csrf");
    const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
    const cookie = (csrf.headers["set-cookie"] ?? "").split(/,(?=\s*[\w-]+=)/).map((c) => c.split(";")[0]).join("; ");
    const body = Buffer.from(new URLSearchParams({ csrfToken, callbackUrl: "not a url" }).toString());
    const answer = await request("POST", "/api/auth/signout", { Cookie: `${cookie}`, "Content-Type": "application/x-www-form-urlencoded", Origin: app.url }, { chunk: body, times: 1 });
    expect(answer.status).toBe(302);
    // Home, on the address Auth.js takes for this server (without SHARECOUNT_PUBLIC_URL, it names loopback `localhost`).
    const home = new URL(answer.headers.location!, app.url);
    expect([home.hostname, home.port, home.pathname]).toEqual([expect.stringMatching(/^(127\.0\.0\.1|localhost)$/), String(app.port), "/"]);
  });
});

describe("request targets", () => {
  it.each(["OPTIONS", "GET", "POST", "HEAD"])("%s * is a 400 with an error object", async (method) => {
    const answer = await request(method, "*");
    expect(answer.status).toBe(400);
    if (method !== "HEAD") {
      expectClean4xx(answer, 400);
      expect(JSON.parse(answer.body)).toMatchObject({ Type: "bad_request" });
    }
  });

  it("a dashboard path that is not valid percent-encoding is a 400 with an error object, signed in or not", async () => {
    for (const path of ["/api/dashboard/imports/%ff", "/api/dashboard/bulk/%ff", "/dashboard/bulk/%C0%AF", "/api/dashboard/sessions/%ff"]) {
      for (const headers of [{}, { Cookie: sessionCookie }] as Record<string, string>[]) {
        const answer = await request("GET", path, headers);
        expectClean4xx(answer, 400);
        expect(JSON.parse(answer.body)).toMatchObject({ error: "bad_request" });
      }
    }
  });

  it("an absolute-form target is served as a request to this host, never redirected to the one it names", async () => {
    const quota = await request("GET", `http://evil.example/v1.0/quota?apikey=${apiKey}`);
    expect(quota.status).toBe(200);
    expect(JSON.parse(quota.body)).toMatchObject({ plan: "business" });
    for (const target of [
      `http://evil.example/v1.0/quota?apikey=${apiKey}`,
      `https://evil.example/v1.0?url=https%3A%2F%2Fexample.com%2F&apikey=${apiKey}`,
      "http://evil.example/dashboard",
      "http://evil.example/",
      "http://evil.example",
      "http://evil.example?apikey=x",
      "//evil.example/",
      "/\\evil.example/",
      "/%2F%2Fevil.example/",
    ]) {
      const answer = await request("GET", target);
      expect(answer.status, target).toBeLessThan(500);
      const location = answer.headers.location;
      if (location) expect(new URL(location, app.url).host, `${target} → ${location}`).toBe(`127.0.0.1:${app.port}`);
    }
  });

  it("a WebSocket upgrade is a JSON 400 on pages and the API, also once Next.js has served pages", async () => {
    expect((await request("GET", "/sign-in")).status).toBe(200);
    const upgrade = { Connection: "Upgrade", Upgrade: "websocket", "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==" };
    for (const target of ["/", "/_next/webpack-hmr", "/dashboard", "/v1.0/status"]) {
      const answer = await request("GET", target, upgrade);
      expectClean4xx(answer, 400);
      expect(answer.headers.connection, target).toBe("close");
    }
  });

  it("other targets are refused", async () => {
    for (const target of ["evil.example:443", "v1.0/quota", "ftp://evil.example/v1.0/quota"]) {
      expectClean4xx(await request("GET", target), 400);
    }
  });
});

describe("dashboard mutations with a forged Origin", () => {
  it.each(["null", "http://[", "::::", "not a url", "https://evil.example"])("Origin: %s is a 403, signed in or not", async (origin) => {
    for (const cookie of [{}, { Cookie: sessionCookie }] as Record<string, string>[]) {
      const answer = await request("POST", "/api/dashboard/lookup", { Origin: origin, "Content-Type": "application/json", ...cookie }, {
        chunk: Buffer.from('{"url":"https://example.com/"}'),
        times: 1,
      });
      expectClean4xx(answer, 403);
      expect(JSON.parse(answer.body)).toMatchObject({ error: "cross_site" });
    }
  });

  it("a server action reached through dot segments or escaped slashes is checked like any other", async () => {
    const targets = [
      "/api/dashboard/../sign-in",
      "/api/dashboard/%2e%2e/sign-in",
      "/api/auth/../../sign-in",
      "/api/dashboard/..%2f..%2fsign-in",
      "/api/dashboard/..%2Fdashboard",
      "/api/dashboard/..%5c..%5csign-in",
      "/api/auth/..%2f..%2fsign-in",
    ];
    for (const target of targets) {
      const answer = await request("POST", target, { Origin: "https://evil.example", "Next-Action": "0".repeat(42), "Content-Type": "text/plain;charset=UTF-8" }, {
        chunk: Buffer.from('["x"]'),
        times: 1,
      });
      expect(answer.status, target).toBe(403);
    }
  });

  it("a cross-origin or Origin: null server action is a 403", async () => {
    const forged: Record<string, string>[] = [{ Origin: "https://evil.example" }, { Origin: "null" }, { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" }];
    for (const headers of forged) {
      const answer = await request("POST", "/sign-in", { ...headers, "Next-Action": "0".repeat(42), "Content-Type": "text/plain;charset=UTF-8" }, {
        chunk: Buffer.from('["x"]'),
        times: 1,
      });
      expectClean4xx(answer, 403);
    }
  });
});

describe("bodies", () => {
  it("a server action body over 1 MB is a 413, and one of unknown length a 411", async () => {
    const headers = { Origin: app.url, "Next-Action": "0".repeat(42), "Content-Type": "text/plain;charset=UTF-8" };
    const big = await request("POST", "/sign-in", { ...headers, "Content-Length": String(2 * 1024 * 1024) }, { chunk: Buffer.alloc(64 * 1024, "a"), times: 32 });
    expectClean4xx(big, 413);
    // Refused on its headers: the client, waiting to be asked for the body (Expect: 100-continue), never sent it.
    expect(big.sent).toBe(0);
    const streamed = await request("POST", "/sign-in", { ...headers, "Transfer-Encoding": "chunked" }, { chunk: Buffer.alloc(64 * 1024, "a"), times: 32 });
    expectClean4xx(streamed, 411);
  });

  it("a dashboard route stops reading an 80 MiB body at its limit and answers 413, declared or streamed", async () => {
    const headers = { ...sameOrigin(), Cookie: sessionCookie };
    const chunk = Buffer.alloc(1024 * 1024, " ");
    const declared = await request("PUT", "/api/dashboard/whitelist", { ...headers, "Content-Length": String(80 * chunk.length) }, { chunk, times: 80 });
    expectClean4xx(declared, 413);
    const streamed = await request("PUT", "/api/dashboard/whitelist", { ...headers, "Transfer-Encoding": "chunked" }, { chunk, times: 80 });
    expectClean4xx(streamed, 413);
    // Answered long before the body was all sent: it was never read whole.
    expect(streamed.sent).toBeLessThan(40 * chunk.length);
    // The route still works for a body of the right size.
    const saved = await request("PUT", "/api/dashboard/whitelist", headers, { chunk: Buffer.from('{"domains":["example.com"],"enabled":false}'), times: 1 });
    expect(saved.status).toBe(200);
    expect(JSON.parse(saved.body)).toEqual({ domains: ["example.com"], enabled: false });
  });

  it("a bulk job's body is bounded by what the account's plan may submit, and past it refused unread", async () => {
    // 1,000 URLs of 2,000 characters: about 2 MB, what business (1,000 URLs a job) may send and free (none) and plus (500) may not.
    const urls = Array.from({ length: 1000 }, (_, i) => `https://example.com/${"p".repeat(1980)}/${i}`);
    const body = Buffer.from(JSON.stringify({ urls }));
    for (const plan of ["free", "plus"]) {
      const { cookie } = await signedInAccount(`${plan}-bulk@example.com`, plan);
      const refused = await request("POST", "/api/dashboard/bulk", { ...sameOrigin(), Cookie: cookie, "Content-Length": String(body.length) }, { chunk: body, times: 1 });
      expectClean4xx(refused, 413);
      expect(refused.sent, plan).toBe(0);
    }
    const business = await request("POST", "/api/dashboard/bulk", { ...sameOrigin(), Cookie: sessionCookie }, { chunk: body, times: 1 });
    expect(business.status).toBe(200);
    expect(JSON.parse(business.body)).toMatchObject({ count: 1000 });
  });
});
