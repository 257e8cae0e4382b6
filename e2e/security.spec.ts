import { createHash } from "node:crypto";
import { expect, signIn, test, withDatabase } from "./fixtures";
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
  apiKeyEncrypted: string;
  sessionTokenHashes: string[];
}

function storedSecrets(email: string): StoredSecrets {
  return withDatabase((db) => {
    const account = db
      .prepare<[string], { id: string; password_hash: string; api_key_hash: string; api_key_encrypted: string }>(
        "SELECT id, password_hash, api_key_hash, api_key_encrypted FROM account WHERE email = ?",
      )
      .get(email)!;
    const sessions = db.prepare<[string], { session_token: string }>("SELECT session_token FROM session WHERE account_id = ?").all(account.id);
    return {
      passwordHash: account.password_hash,
      apiKeyHash: account.api_key_hash,
      apiKeyEncrypted: account.api_key_encrypted,
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
    "encrypted API key": stored.apiKeyEncrypted,
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
