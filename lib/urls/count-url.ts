import { publicHost } from "./public-host.ts";
import { MAX_URL_LENGTH } from "./url-length.ts";

/**
 * Which URLs can be counted, and the one normalized form they are cached and counted under.
 * Runs in the browser too (the dashboard checks bulk files before upload), so only web-standard APIs.
 */

/** C0 controls and DEL: the URL parser would drop or encode them, but the URL as written is stored too. */
const CONTROL = /[\u0000-\u001f\u007f]/;

export type CountUrlResult = { ok: true; url: URL; normalized: string } | { ok: false; reason: string };

const SCHEME_ENCODED_ONCE = /^https?%3a/i;

/**
 * Undoes the extra percent-encoding some clients add (a jQuery snippet encodes the URL and jQuery encodes it again).
 * A URL that still starts with an encoded scheme after the query string was decoded once is decoded again.
 */
function undoExtraEncoding(value: string): string {
  let current = value;
  for (let i = 0; i < 2 && SCHEME_ENCODED_ONCE.test(current); i++) {
    try {
      current = decodeURIComponent(current);
    } catch {
      break;
    }
  }
  return current;
}

export function parseCountUrl(input: string): CountUrlResult {
  const value = undoExtraEncoding(input.trim());
  if (value.length === 0) return { ok: false, reason: "the url parameter is empty" };
  if (value.length > MAX_URL_LENGTH) return { ok: false, reason: `the URL is longer than ${MAX_URL_LENGTH} characters` };
  if (CONTROL.test(value)) return { ok: false, reason: "the URL contains a control character (such as a NUL, a tab or a line break)" };
  if (!/^https?:\/\//i.test(value)) {
    return { ok: false, reason: "the URL must be complete, starting with http:// or https://" };
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, reason: "the URL could not be parsed; send a complete, percent-encoded URL" };
  }
  const host = url.hostname.replace(/\.$/, "");
  const verdict = publicHost(host);
  if (!verdict.ok) return verdict;
  // Credentials and fragments never reach a share counter; the host keeps its punycode form.
  url.username = "";
  url.password = "";
  url.hash = "";
  url.hostname = host;
  return { ok: true, url, normalized: url.href };
}
