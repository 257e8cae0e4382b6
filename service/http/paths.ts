/**
 * Which request paths are the API's, and their one canonical form: repeated slashes collapse (a snippet
 * requests `/v1.0//url`) and a trailing slash is optional (`/v1.0/` and `/v1.0` are the same endpoint).
 */

export function canonicalPath(pathname: string): string {
  const collapsed = pathname.replace(/\/{2,}/g, "/");
  return collapsed.length > 1 ? collapsed.replace(/\/$/, "") : collapsed;
}

/** Versioned paths, the legacy `/url` and `/bulk`, and the original service's account paths at the root. */
const API_PATH = /^\/(?:v1\.[01](?:\/.*)?|url|bulk|quota|get_quota|usage|domain_whitelist|status)$/;
/** The original service's root form, still sent by older clients: `/?url=…&apikey=…`. */
const ROOT_API_QUERY = /(?:^|&)(?:url|apikey|apiKey)=/;

/** Whether a request is the API's: its path, or `/` with a URL or key in the query (a plain `/` is the dashboard's). */
export function isApiRequest(target: string): boolean {
  const query = target.indexOf("?");
  const path = canonicalPath(query === -1 ? target : target.slice(0, query));
  return API_PATH.test(path) || (path === "/" && query !== -1 && ROOT_API_QUERY.test(target.slice(query + 1)));
}
