import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { E2E_BASE_URL } from "./env";
import { api, expect, test, withDatabase } from "./fixtures";
import { dashboardPages, dashboardRoutes } from "./routes";

/**
 * What a signed-in browser can read: every GET route it can call answers nothing a script on the page could
 * use against the account (session token, password hash, the API key, its hash or its encrypted copy).
 */

const SESSION_COOKIE = "authjs.session-token";

/** Auth.js's GET actions under /api/auth (@auth/core's router), provider callbacks included. */
const AUTH_GET_ROUTES = [
  "/api/auth/session",
  "/api/auth/csrf",
  "/api/auth/providers",
  "/api/auth/signin",
  "/api/auth/signout",
  "/api/auth/error",
  "/api/auth/verify-request",
  "/api/auth/webauthn-options",
  "/api/auth/callback/github",
  "/api/auth/callback/google",
];

interface StoredSecrets {
  passwordHash: string;
  apiKeyHash: string;
  sessionTokenHashes: string[];
}

function storedSecrets(email: string): StoredSecrets {
  return withDatabase((db) => {
    const account = db
      .prepare<[string], { id: string; password_hash: string; api_key_hash: string }>(
        "SELECT a.id, a.password_hash, k.key_hash AS api_key_hash FROM account a JOIN api_key k ON k.account_id = a.id WHERE a.email = ?",
      )
      .get(email)!;
    const sessions = db.prepare<[string], { session_token: string }>("SELECT session_token FROM session WHERE account_id = ?").all(account.id);
    return {
      passwordHash: account.password_hash,
      apiKeyHash: account.api_key_hash,
      sessionTokenHashes: sessions.map((s) => s.session_token),
    };
  });
}

test("no GET route a signed-in browser can call answers a session token, a password or key hash, or the key", async ({ signedIn: page, account }) => {
  const token = (await page.context().cookies()).find((c) => c.name === SESSION_COOKIE)?.value;
  expect(token, "the session cookie").toBeTruthy();
  const stored = storedSecrets(account.email);
  expect(stored.sessionTokenHashes).toContain(createHash("sha256").update(token!).digest("hex"));
  const secrets: Record<string, string> = {
    "session token": token!,
    "API key": account.apiKey,
    "password hash": stored.passwordHash,
    // The argon2 hash's last part alone, in case something re-encodes the PHC string.
    "password hash digest": stored.passwordHash.split("$").at(-1)!,
    "API key hash": stored.apiKeyHash,
    ...Object.fromEntries(stored.sessionTokenHashes.map((hash, i) => [`stored session token ${i}`, hash])),
  };

  const routes = [
    "/",
    "/sign-in",
    "/sign-up",
    "/healthz",
    ...dashboardPages(),
    ...dashboardRoutes()
      .filter((r) => r.methods.includes("GET"))
      .map((r) => r.path),
    ...AUTH_GET_ROUTES,
  ];
  const leaks: string[] = [];
  for (const route of routes) {
    // Redirects are not followed: their own headers are checked here, and their targets are on the list.
    const response = await page.request.get(route, { maxRedirects: 0 });
    const readable = Object.entries(response.headers())
      .filter(([name]) => name !== "set-cookie")
      .map(([name, value]) => `${name}: ${value}`)
      .join("\n");
    const body = await response.text();
    for (const [what, value] of Object.entries(secrets)) {
      if (body.includes(value)) leaks.push(`${what} in the body of GET ${route} (${response.status()})`);
      if (readable.includes(value)) leaks.push(`${what} in a header of GET ${route}`);
    }
  }
  expect(leaks).toEqual([]);
  test.info().annotations.push({ type: "routes", description: routes.join(" ") });

  // What the session endpoint answers is exactly what the browser needs.
  const session = (await (await page.request.get("/api/auth/session")).json()) as Record<string, unknown>;
  expect(session).toEqual({ user: { email: account.email }, expires: expect.any(String) });
  expect(Date.parse(session.expires as string)).toBeGreaterThan(Date.now());
});

/** A page on another origin (another port), as an attacker's site would serve it. */
async function serveHtml(body: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html><body>${body}</body>`));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The pages a browser can open, signed in, plus a 404 and a job page for a job that does not exist. */
const PAGES = () => ["/", "/sign-in", "/sign-up", "/forgot-password", "/reset-password", "/no-such-page", "/dashboard/bulk/e2e-no-such-job", ...dashboardPages()];

test.describe("framing and content security policy", () => {
  test("every page sends the CSP with frame-ancestors 'none' and a fresh nonce, X-Frame-Options, nosniff and a referrer policy", async ({ signedIn: page }) => {
    const nonces = new Set<string>();
    const signedOut = await page.context().browser()!.newContext({ baseURL: E2E_BASE_URL });
    for (const pathname of PAGES()) {
      for (const request of [page.request, signedOut.request]) {
        const response = await request.get(pathname);
        const headers = response.headers();
        expect(headers["x-frame-options"], pathname).toBe("DENY");
        expect(headers["x-content-type-options"], pathname).toBe("nosniff");
        expect(headers["referrer-policy"], pathname).toBe("strict-origin-when-cross-origin");
        const directives = new Map(
          (headers["content-security-policy"] ?? "").split(";").map((d) => {
            const [name, ...values] = d.trim().split(/\s+/);
            return [name!, values] as const;
          }),
        );
        expect(directives.get("frame-ancestors"), pathname).toEqual(["'none'"]);
        const scripts = directives.get("script-src") ?? [];
        expect(scripts, pathname).toContain("'strict-dynamic'");
        expect(scripts.filter((s) => ["'unsafe-inline'", "'unsafe-eval'", "*", "http:", "https:"].includes(s)), pathname).toEqual([]);
        const nonce = scripts.find((s) => s.startsWith("'nonce-"));
        expect(nonce, pathname).toBeDefined();
        nonces.add(nonce!);
        expect(directives.get("object-src"), pathname).toEqual(["'none'"]);
        expect(directives.get("base-uri"), pathname).toEqual(["'none'"]);
        // Every script in the page carries that nonce (or the browser would refuse to run it).
        const html = await response.text();
        for (const tag of html.match(/<script\b[^>]*>/g) ?? []) expect(tag, pathname).toContain(`nonce="${nonce!.slice(7, -1)}"`);
      }
    }
    await signedOut.close();
    expect(nonces.size, "a nonce per response").toBe(PAGES().length * 2);
  });

  test("a page on another site cannot frame the dashboard (the clickjacking of Roll key and Sign out everywhere else)", async ({ signedIn: page }) => {
    const targets = ["/dashboard", "/dashboard/settings", "/sign-in"];
    // Control: the API's status answer sets no framing policy, so it does load in a frame; the test can tell.
    const control = "/v1.0/status";
    const attacker = await serveHtml([...targets, control].map((t) => `<iframe src="${E2E_BASE_URL}${t}" width="600" height="400"></iframe>`).join(""));
    try {
      await page.goto(attacker.url);
      const frames = page.frames().slice(1);
      expect(frames).toHaveLength(targets.length + 1);
      await expect(frames.at(-1)!.locator("body")).toContainText('"status":"up"');
      expect(frames.at(-1)!.url()).toBe(`${E2E_BASE_URL}${control}`);
      for (const [i, target] of targets.entries()) {
        // Chromium replaces a refused frame with its error page.
        expect(frames[i]!.url(), target).toBe("chrome-error://chromewebdata/");
        expect(await frames[i]!.getByRole("button").count(), target).toBe(0);
      }
    } finally {
      await attacker.close();
    }
  });

  test("the pages work under it: no script, style or connection refused, the usage chart's lazily loaded code included", async ({ signedIn: page, account }) => {
    expect((await api(`/v1.0/?url=${encodeURIComponent("https://example.com/csp-check")}`, account.apiKey)).status).toBe(200);
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to/.test(message.text())) violations.push(`${page.url()}: ${message.text()}`);
    });
    for (const pathname of PAGES()) {
      await page.goto(pathname);
      await page.waitForLoadState("networkidle");
    }
    await page.goto("/dashboard/usage");
    await expect(page.getByRole("application", { name: /Queries per day/ })).toBeVisible();
    // Hydrated: a client-side control responds.
    await page.getByRole("button", { name: "7 days" }).click();
    await expect(page).toHaveURL(/days=7/);
    expect(violations).toEqual([]);
  });
});
