import type http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import next from "next";
import { authUrlFor, type Env } from "../env.ts";
import { CLIENT_IP_HEADER, clientAddressResolver } from "../auth/client-ip.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The dashboard (the built Next.js app) as a request listener, for server.ts and web.ts. */
export async function dashboardListener(env: Env, port: number): Promise<http.RequestListener> {
  // Auth.js builds every URL it sends out (sign-in providers' redirect URIs, its own redirects) from AUTH_URL;
  // otherwise from the listening address or whatever Host a request claims.
  if (env.SHARECOUNT_PUBLIC_URL) process.env.AUTH_URL = authUrlFor(env.SHARECOUNT_PUBLIC_URL);
  const dashboard = next({ dev: false, dir: root, hostname: env.HOST, port });
  await dashboard.prepare();
  const handle = dashboard.getRequestHandler();
  const clientAddress = clientAddressResolver(env.TRUSTED_PROXIES);
  return (req, res) => {
    // Sign-in rate limits key on the client's address: from the socket (or what trusted proxies say of it),
    // never from what the client sends.
    req.headers[CLIENT_IP_HEADER] = clientAddress(req);
    void handle(req, res);
  };
}
