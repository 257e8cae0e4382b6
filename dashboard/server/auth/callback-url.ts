import type http from "node:http";

/** Auth.js's cookie for where to go after signing in, which any client can write. */
const COOKIE_NAME = /^(?:__Secure-)?authjs\.callback-url$/;

/**
 * What Auth.js takes as a callback URL: an http(s) URL or a path. It fails every auth route (a 500, even the
 * session) on a callback-url cookie or `callbackUrl` parameter that is anything else, so such values are dropped
 * or refused before it sees them.
 */
export function isCallbackUrl(value: string): boolean {
  const url = URL.parse(value, value.startsWith("/") ? "http://sharecount.invalid" : undefined);
  return url !== null && (url.protocol === "http:" || url.protocol === "https:");
}

function cookieValue(raw: string): string {
  try {
    return decodeURIComponent(raw.trim());
  } catch {
    return raw.trim();
  }
}

/** Removes callback-url cookies that are no callback URL from the request's Cookie header (Auth.js then uses its default). */
export function dropInvalidCallbackUrlCookie(headers: http.IncomingHttpHeaders): void {
  const cookie = headers.cookie;
  if (!cookie?.includes("callback-url")) return;
  const kept = cookie.split(";").filter((pair) => {
    const equals = pair.indexOf("=");
    if (equals === -1 || !COOKIE_NAME.test(pair.slice(0, equals).trim())) return true;
    return isCallbackUrl(cookieValue(pair.slice(equals + 1)));
  });
  headers.cookie = kept.join(";");
}
