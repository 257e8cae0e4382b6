import type http from "node:http";
import { isSameOrigin } from "./same-origin.ts";

/**
 * What the dashboard's server refuses before Next.js reads a request, which it would otherwise buffer whole
 * and answer with a 500 when it is too big or cross-origin. Dashboard API routes (/api/dashboard/…) bound
 * their own bodies as they read them (lib/dashboard/route.ts).
 */

/** Next.js's own limit for server action bodies (serverActions.bodySizeLimit, 1 MB). */
export const SERVER_ACTION_MAX_BYTES = 1024 * 1024;
/** Auth.js's form posts: a CSRF token and a callback URL. */
export const AUTH_MAX_BYTES = 64 * 1024;

export interface Refusal {
  status: number;
  error: string;
  message: string;
}

export function refusal(req: Pick<http.IncomingMessage, "method" | "url" | "headers">, publicOrigin: string | undefined): Refusal | null {
  const method = req.method ?? "GET";
  if (method === "GET" || method === "HEAD") return null;
  // As Next.js will resolve it: `/api/dashboard/../x` is a page.
  const path = URL.parse(req.url ?? "/", "http://sharecount.invalid")?.pathname ?? "/";
  if (path.startsWith("/api/dashboard/")) return null;
  // Everything else that is not Auth.js's is a server action (pages answer no other POST).
  const serverAction = !path.startsWith("/api/auth/");
  const header = (name: string) => {
    const value = req.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  if (serverAction && !isSameOrigin(header, publicOrigin)) {
    return { status: 403, error: "cross_site", message: "Cross-site requests are refused." };
  }
  const limit = serverAction ? SERVER_ACTION_MAX_BYTES : AUTH_MAX_BYTES;
  const length = header("content-length");
  if (length === undefined) {
    // A streamed body's size is known only once it has been read whole: ask for its length up front.
    if (header("transfer-encoding") !== undefined) return { status: 411, error: "length_required", message: "Send the body with a Content-Length." };
    return null;
  }
  if (!/^\d+$/.test(length) || Number(length) > limit) {
    return { status: 413, error: "body_too_large", message: `The request body is over ${limit} bytes.` };
  }
  return null;
}
