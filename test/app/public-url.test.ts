import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDashboardBuild, startApp, type App } from "../support/app.ts";

/*
 * GitHub and Google send users back to the redirect URI the authorize request carries: it must be the
 * dashboard's public address (SHARECOUNT_PUBLIC_URL), whatever address the process listens on and whatever
 * Host or X-Forwarded-Host a request claims.
 */

const PUBLIC_URL = "https://sharecount.example.org";
let app: App;

beforeAll(async () => {
  await ensureDashboardBuild();
  app = await startApp({
    // Listening on every address is what produced http://0.0.0.0:<port>/… before.
    HOST: "0.0.0.0",
    SHARECOUNT_PUBLIC_URL: PUBLIC_URL,
    AUTH_GITHUB_ID: "github-client-id",
    AUTH_GITHUB_SECRET: "github-client-secret",
    AUTH_GOOGLE_ID: "google-client-id",
    AUTH_GOOGLE_SECRET: "google-client-secret",
  });
}, 300_000);
afterAll(() => app?.close());

/** GitHub's endpoints are fixed; Google's come from OpenID discovery over the network, which these machines lack. */
const GITHUB = { id: "github", name: "GitHub", authorize: "https://github.com/login/oauth/authorize" } as const;

const SPOOFED = { Host: "evil.example", "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "http" };

/** The fields of the sign-in page's no-JavaScript form for "Continue with <provider>" (a server action). */
async function providerForm(name: string): Promise<FormData> {
  const html = await (await fetch(`${app.url}/sign-in`)).text();
  const forms = [...html.matchAll(/<form\b[^>]*>([\s\S]*?)<\/form>/g)].map((m) => m[1]!.replaceAll("<!-- -->", ""));
  const form = forms.find((f) => f.includes(`Continue with ${name}`));
  if (!form) throw new Error(`no "Continue with ${name}" form on /sign-in`);
  const unescape = (v: string) => v.replaceAll("&quot;", '"').replaceAll("&#x27;", "'").replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&");
  const data = new FormData();
  for (const m of form.matchAll(/<input type="hidden" name="([^"]+)"(?: value="([^"]*)")?\/>/g)) data.append(unescape(m[1]!), unescape(m[2] ?? ""));
  return data;
}

function redirectUriOf(location: string | null, authorize: string): string | null {
  expect(location, "a redirect").toBeTruthy();
  const url = new URL(location!);
  expect(`${url.origin}${url.pathname}`).toBe(authorize);
  return url.searchParams.get("redirect_uri");
}

/** Auth.js's sign-in endpoint (POST /api/auth/signin/<provider>, with its CSRF token) as `headers` claim. */
async function authJsSignIn(provider: string, headers: Record<string, string>): Promise<Response> {
  const csrf = await fetch(`${app.url}/api/auth/csrf`, { headers });
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookie = csrf.headers.getSetCookie().map((c) => c.split(";", 1)[0]).join("; ");
  return fetch(`${app.url}/api/auth/signin/${provider}`, {
    method: "POST",
    headers: { ...headers, cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, callbackUrl: "/dashboard" }),
    redirect: "manual",
  });
}

describe("sign-in providers behind a public URL", () => {
  it("the sign-in page's GitHub button redirects with the public callback URL", async () => {
    for (const headers of [{ Origin: app.url }, { ...SPOOFED, Origin: "http://evil.example" }]) {
      const response = await fetch(`${app.url}/sign-in`, { method: "POST", body: await providerForm(GITHUB.name), redirect: "manual", headers });
      expect(response.status, JSON.stringify(headers)).toBe(303);
      expect(redirectUriOf(response.headers.get("location"), GITHUB.authorize)).toBe(`${PUBLIC_URL}/api/auth/callback/github`);
    }
  });

  it("Auth.js's own sign-in endpoint does too", async () => {
    for (const headers of [{}, SPOOFED]) {
      const response = await authJsSignIn(GITHUB.id, headers);
      expect(response.status, JSON.stringify(headers)).toBe(302);
      expect(redirectUriOf(response.headers.get("location"), GITHUB.authorize)).toBe(`${PUBLIC_URL}/api/auth/callback/github`);
    }
  });

  it("Auth.js's other redirects go to the public URL too (Google, without its discovery document here, back to sign-in)", async () => {
    for (const headers of [{}, SPOOFED]) {
      const response = await authJsSignIn("google", headers);
      expect(response.status).toBe(302);
      expect(new URL(response.headers.get("location")!).origin).toBe(PUBLIC_URL);
    }
  });
});
