/**
 * Which request paths are the API's, and their one canonical form: repeated slashes collapse (a snippet
 * requests `/v1.0//url`) and a trailing slash is optional (`/v1.0/` and `/v1.0` are the same endpoint).
 */

export function canonicalPath(pathname: string): string {
  const collapsed = pathname.replace(/\/{2,}/g, "/");
  return collapsed.length > 1 ? collapsed.replace(/\/$/, "") : collapsed;
}

const API_PATH = /^\/(?:v1\.[01](?:\/.*)?|url|bulk)$/;

export function isApiPath(pathname: string): boolean {
  return API_PATH.test(canonicalPath(pathname));
}
