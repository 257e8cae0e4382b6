import net from "node:net";
import ipaddr from "ipaddr.js";

/**
 * What a request log row keeps of a request: never a key (apikey is removed from the query and from the URL
 * it names, in any letter case; headers are not kept), only a network prefix of the client's address, and
 * bounded text.
 */

export const MAX_QUERY_LENGTH = 2_048;
export const MAX_URL_LENGTH = 2_048;
export const MAX_PATH_LENGTH = 512;
export const MAX_USER_AGENT_LENGTH = 512;

const KEY_PARAM = /^api[-_]?key$/i;

export const cut = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

function decodedOnce(component: string): string {
  if (!component.includes("%") && !component.includes("+")) return component;
  try {
    return decodeURIComponent(component.replaceAll("+", " "));
  } catch {
    return component;
  }
}

/** Decoded until it no longer changes (a client may encode twice: `api%255Fkey`), three times at most. */
function decoded(component: string): string {
  let text = component;
  for (let i = 0; i < 3; i++) {
    const next = decodedOnce(text);
    if (next === text) break;
    text = next;
  }
  return text;
}

/** Whether `text` may hold `api` once decoded: spelled out, or with its first letter percent-encoded. */
const MAY_NAME_KEY = /api|%[46]1/i;

/** A query string (or a URL's) without its apikey parameters, in any letter case and however encoded. */
function withoutKeys(query: string): string {
  if (!MAY_NAME_KEY.test(query)) return query;
  const kept: string[] = [];
  for (const part of query.split("&")) {
    const eq = part.indexOf("=");
    const name = eq === -1 ? part : part.slice(0, eq);
    if (KEY_PARAM.test(decoded(name).trim())) continue;
    // A value that is itself a URL with a key in its own query (`url=https%3A%2F%2F…%3Fapikey%3D…`) loses that too.
    if (eq !== -1 && MAY_NAME_KEY.test(part.slice(eq + 1)) && /api[-_]?key/i.test(decoded(part.slice(eq + 1)))) {
      kept.push(`${name}=${encodeURIComponent(urlWithoutKeys(decodedOnce(part.slice(eq + 1))))}`);
      continue;
    }
    kept.push(part);
  }
  return kept.join("&");
}

/** A URL without apikey parameters in its query. */
function urlWithoutKeys(url: string): string {
  const start = url.indexOf("?");
  if (start === -1) return url;
  const hash = url.indexOf("#", start);
  const query = hash === -1 ? url.slice(start + 1) : url.slice(start + 1, hash);
  const rest = withoutKeys(query);
  return `${url.slice(0, start)}${rest ? `?${rest}` : ""}${hash === -1 ? "" : url.slice(hash)}`;
}

/** A path segment shaped like a key (40 hex digits): where a bulk id is not expected, a key sent by mistake. */
const KEY_SEGMENT = /(?<!\/bulk)\/[0-9a-fA-F]{40}(?=\/|$)/g;

/** A request target's path without key-shaped segments, and its query string without keys (both bounded). */
export function loggedTarget(target: string): { path: string; query: string } {
  const start = target.indexOf("?");
  const path = cut((start === -1 ? target : target.slice(0, start)).replace(KEY_SEGMENT, "/[redacted]"), MAX_PATH_LENGTH);
  return { path, query: start === -1 ? "" : cut(withoutKeys(target.slice(start + 1)), MAX_QUERY_LENGTH) };
}

/**
 * The URL a request named (its `url` parameter), without keys, bounded; null when it named none. Read from
 * the query already stripped of keys, so a URL sent unencoded (`url=https://a.example/?x=1&apikey=…`) cannot
 * carry one in either.
 */
export function loggedUrl(query: string): string | null {
  for (const part of query.split("&")) {
    if (!part.startsWith("url=")) continue;
    return cut(urlWithoutKeys(decodedOnce(part.slice(4))), MAX_URL_LENGTH);
  }
  return null;
}

/** An IPv4 address as its /24, an IPv6 one as its /48 (an IPv4-mapped one as its IPv4 /24); "" when unknown. */
export function ipPrefix(address: string | undefined): string {
  if (!address) return "";
  let v4 = net.isIPv4(address) ? address : null;
  if (v4 === null) {
    if (!net.isIPv6(address)) return "";
    const v6 = ipaddr.IPv6.parse(address);
    if (!v6.isIPv4MappedAddress()) return `${v6.parts.slice(0, 3).map((group) => group.toString(16)).join(":")}::/48`;
    v4 = v6.toIPv4Address().toString();
  }
  return `${v4.slice(0, v4.lastIndexOf("."))}.0/24`;
}
