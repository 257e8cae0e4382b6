/**
 * Which request paths are the API's, and their one canonical form: repeated slashes collapse (a snippet
 * requests `/v1.0//url`) and a trailing slash is optional (`/v1.0/` and `/v1.0` are the same endpoint).
 */

export function canonicalPath(pathname: string): string {
  const collapsed = pathname.includes("//") ? pathname.replace(/\/{2,}/g, "/") : pathname;
  return collapsed.length > 1 && collapsed.endsWith("/") ? collapsed.slice(0, -1) : collapsed;
}

/** The canonical path of a request target (origin-form: a path, perhaps a query). */
export function targetPath(target: string): string {
  const query = target.indexOf("?");
  return canonicalPath(query === -1 ? target : target.slice(0, query));
}

/** Characters URL parsing leaves as they are in a path and a query. */
const PLAIN_TARGET = /^[\w\-.~!$&()*+,;=:@/?%]*$/;
/** A `.` or `..` segment in the path (not the query), perhaps percent-encoded, which URL parsing resolves. */
const DOT_SEGMENT = /^[^?]*?\/(?:\.|%2e){1,2}(?=[/?]|$)/i;

/**
 * A request target as URL parsing reads it (dot segments resolved, characters a URL may not hold
 * percent-encoded), as the API's routes have always seen it through Hono's Node adapter. Most targets hold
 * nothing to change and are taken as they are.
 */
export function parsedTarget(target: string): string {
  if (PLAIN_TARGET.test(target) && !DOT_SEGMENT.test(target)) return target;
  return new URL(`http://h${target}`).href.slice("http://h".length);
}

/** Versioned paths (v1.0, v1.1, v2), the legacy `/url` and `/bulk`, and the original service's account paths at the root. */
const API_PATH = /^\/(?:v1\.[01](?:\/.*)?|v2(?:\/.*)?|url|bulk|quota|get_quota|usage|domain_whitelist|status)$/;
/** The original service's root form, still sent by older clients: `/?url=…&apikey=…`. */
const ROOT_API_QUERY = /(?:^|&)(?:url|apikey|apiKey)=/;

/** Whether a request is the API's: its path, or `/` with a URL or key in the query (a plain `/` is the dashboard's). */
export function isApiRequest(target: string): boolean {
  const path = targetPath(target);
  if (API_PATH.test(path)) return true;
  const query = target.indexOf("?");
  return path === "/" && query !== -1 && ROOT_API_QUERY.test(target.slice(query + 1));
}
