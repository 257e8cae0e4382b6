import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import next from "next";
import { authUrlFor, type Env } from "../../lib/env.ts";
import { dropInvalidCallbackUrlCookie } from "./auth/callback-url.ts";
import { CLIENT_IP_HEADER, clientAddressResolver } from "../../lib/security/client-ip.ts";
import { REQUEST_PATH_HEADER, requestedPath } from "./auth/next-path.ts";
import { refusal } from "./request-guard.ts";
import { contentSecurityPolicy, newNonce, securityHeaders } from "./security-headers.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The dashboard (the built Next.js app) as a request listener, for start/one-process.ts and start/dashboard.ts. */
export async function dashboardListener(env: Env, port: number): Promise<http.RequestListener> {
  // Auth.js builds every URL it sends out (sign-in providers' redirect URIs, its own redirects) from AUTH_URL;
  // otherwise from the listening address or whatever Host a request claims.
  if (env.SHARECOUNT_PUBLIC_URL) process.env.AUTH_URL = authUrlFor(env.SHARECOUNT_PUBLIC_URL);
  // Next.js listens for WebSocket upgrades (its development reloads) on the server of the first request it sees;
  // the HTTP server answers upgrades itself, so Next.js is handed one that never listens.
  const dashboard = next({ dev: false, dir: root, hostname: env.HOST, port, httpServer: http.createServer() });
  await dashboard.prepare();
  const handle = dashboard.getRequestHandler();
  const clientAddress = clientAddressResolver(env.TRUSTED_PROXIES);
  const policy = { formActionOrigins: signInProviderOrigins(env) };
  return (req, res) => {
    const csp = contentSecurityPolicy(newNonce(), policy);
    for (const [name, value] of Object.entries(securityHeaders(csp))) res.setHeader(name, value);
    const refused = refusal(req, env.SHARECOUNT_PUBLIC_URL);
    if (refused) {
      res.writeHead(refused.status, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
      res.end(JSON.stringify({ error: refused.error, message: refused.message }));
      return;
    }
    dropInvalidCallbackUrlCookie(req.headers);
    // Sign-in rate limits key on the client's address: from the socket (or what trusted proxies say of it),
    // never from what the client sends.
    req.headers[CLIENT_IP_HEADER] = clientAddress(req);
    // Server components do not know their URL: the path a signed-out browser asked for, to return to it.
    req.headers[REQUEST_PATH_HEADER] = requestedPath(req.url ?? "/");
    // Next.js takes the nonce for its scripts from the request's policy (a client's own is replaced).
    req.headers["content-security-policy"] = csp;
    delete req.headers["content-security-policy-report-only"];
    void handle(req, res);
  };
}

/** The sign-in providers' authorization servers: the no-JavaScript sign-in form is redirected there. */
function signInProviderOrigins(env: Env): string[] {
  return [
    ...(env.AUTH_GITHUB_ID && env.AUTH_GITHUB_SECRET ? ["https://github.com"] : []),
    ...(env.AUTH_GOOGLE_ID && env.AUTH_GOOGLE_SECRET ? ["https://accounts.google.com"] : []),
  ];
}
