/**
 * Where to send a browser after sign-in: the dashboard page it asked for before it was sent to sign in
 * (`/sign-in?next=/dashboard/usage?days=90`). Only a path of this site's dashboard is honoured, so a crafted
 * link cannot send someone elsewhere once signed in; anything else is the overview.
 */

export const SIGNED_IN_HOME = "/dashboard";

/** The header the dashboard's server sets to the requested path (a client's own is replaced): see next-server.ts. */
export const REQUEST_PATH_HEADER = "x-sharecount-path";

const BASE = "http://sharecount.invalid";

export function safeNextPath(value: unknown): string {
  if (typeof value !== "string" || value.length > 2048 || !value.startsWith("/")) return SIGNED_IN_HOME;
  const url = URL.parse(value, BASE);
  // Another origin (`//evil.example`, `/\evil.example`), or a path that leaves the dashboard once resolved.
  if (!url || url.origin !== BASE || !(url.pathname === SIGNED_IN_HOME || url.pathname.startsWith(`${SIGNED_IN_HOME}/`))) {
    return SIGNED_IN_HOME;
  }
  return url.pathname + url.search;
}

/** The path and query a request asked for, without Next.js's own `_rsc` parameter (client navigations add it). */
export function requestedPath(target: string): string {
  const url = URL.parse(target, BASE);
  if (!url) return SIGNED_IN_HOME;
  url.searchParams.delete("_rsc");
  return url.pathname + url.search;
}
