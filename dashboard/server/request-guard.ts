import type http from "node:http";
import { isCallbackUrl } from "./auth/callback-url.ts";
import { isHostHeader } from "../../lib/urls/host-header.ts";
import { isSameOrigin } from "./same-origin.ts";

/**
 * What the dashboard's server refuses before Next.js reads a request, which it would otherwise buffer whole
 * and answer with a 500 when it is too big or cross-origin, or names no host. Dashboard API routes
 * (/api/dashboard/…) bound their own bodies as they read them (dashboard/server/signed-in-endpoint.ts).
 */

/** Next.js's own limit for server action bodies (serverActions.bodySizeLimit, 1 MB). */
export const SERVER_ACTION_MAX_BYTES = 1024 * 1024;
/** Auth.js's form posts: a CSRF token and a callback URL. */
export const AUTH_MAX_BYTES = 64 * 1024;
/** RFC 8058's one-click body, `List-Unsubscribe=One-Click`, with room to spare. */
export const UNSUBSCRIBE_MAX_BYTES = 1024;
/** Posted by mail providers (from no page of this site); the token in its URL authenticates it. */
export const UNSUBSCRIBE_PATH = "/api/unsubscribe";

export interface Refusal {
  status: number;
  error: string;
  message: string;
}

/**
 * Auth.js and the pages build URLs from the Host and the forwarded host and scheme, and fail on one that is none.
 * A chain of proxies appends to the forwarded ones (`https, http`): the first is what the browser used, and it is
 * all that is passed on. Anything that is no host, or no `http`/`https`, is refused.
 */
export function forwardedRefusal(headers: http.IncomingHttpHeaders): Refusal | null {
  for (const name of ["x-forwarded-host", "x-forwarded-proto"]) {
    const value = headers[name];
    if (typeof value === "string") headers[name] = value.split(",")[0]!.trim();
  }
  // Host itself is checked by the HTTP server, for every request.
  const forwardedHost = headers["x-forwarded-host"];
  if (typeof forwardedHost === "string" && !isHostHeader(forwardedHost)) {
    return { status: 400, error: "bad_request", message: "The x-forwarded-host header is not a host name." };
  }
  const proto = headers["x-forwarded-proto"];
  if (typeof proto === "string" && proto !== "http" && proto !== "https") {
    return { status: 400, error: "bad_request", message: "The x-forwarded-proto header is neither http nor https." };
  }
  return null;
}

export function refusal(req: Pick<http.IncomingMessage, "method" | "url" | "headers">, publicOrigin: string | undefined): Refusal | null {
  const header = (name: string) => {
    const value = req.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const forwarded = forwardedRefusal(req.headers);
  if (forwarded) return forwarded;
  // Next.js decodes the path to route it, and answers a plain-text 500 when it cannot.
  if (!decodablePath(req.url ?? "/")) return { status: 400, error: "bad_request", message: "The request path is not valid percent-encoding." };
  const url = URL.parse(req.url ?? "/", "http://sharecount.invalid");
  const callbackUrl = url?.searchParams.get("callbackUrl");
  if (url?.pathname.startsWith("/api/auth/") && callbackUrl && !isCallbackUrl(callbackUrl)) {
    return { status: 400, error: "bad_request", message: "callbackUrl must be a path on this site or an http(s) URL." };
  }
  const method = req.method ?? "GET";
  if (method === "GET" || method === "HEAD") return null;
  // As Next.js will resolve it: `/api/dashboard/../x` is a page. Next.js also decodes escapes before it routes
  // (`/api/dashboard/..%2fx` is a page too), so only a path without any is taken at its word.
  const path = url?.pathname ?? "/";
  const plain = !path.includes("%");
  if (plain && path.startsWith("/api/dashboard/")) return null;
  const oneClick = plain && path === UNSUBSCRIBE_PATH;
  // Everything else that is not Auth.js's is a server action (pages answer no other POST).
  const serverAction = !(plain && path.startsWith("/api/auth/")) && !oneClick;
  if (serverAction && !isSameOrigin(header, publicOrigin)) {
    return { status: 403, error: "cross_site", message: "Cross-site requests are refused." };
  }
  const limit = oneClick ? UNSUBSCRIBE_MAX_BYTES : serverAction ? SERVER_ACTION_MAX_BYTES : AUTH_MAX_BYTES;
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

function decodablePath(target: string): boolean {
  try {
    decodeURIComponent(target.split("?", 1)[0]!);
    return true;
  } catch {
    return false;
  }
}
