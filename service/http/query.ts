import { ApiError } from "./errors.ts";

/**
 * Query-string parsing that tolerates what real clients send: `apiKey` for `apikey`, bytes that are not
 * UTF-8, and a `url` that was not percent-encoded (`?url=http://a.com/x?y=1&z=2&apikey=K`), whose own
 * query parameters then arrive as separate parameters and are put back.
 */

const API_PARAMS = new Set(["url", "apikey", "apiKey", "callback", "custom_ttl", "_", "force", "bulk_id"]);

export type QueryParams = Map<string, string>;

/** Form decoding (`+` is a space); bytes that are not UTF-8 become U+FFFD instead of failing the request. */
function decode(component: string): string {
  const plus = component.includes("+");
  if (!plus && !component.includes("%")) return component;
  try {
    return decodeURIComponent(plus ? component.replaceAll("+", " ") : component);
  } catch {
    return new URLSearchParams(`v=${component}`).get("v") ?? "";
  }
}

export function parseQuery(search: string): QueryParams {
  const params: QueryParams = new Map();
  let rawUrl: string[] | null = null;
  for (const part of search.split("&")) {
    if (part.length === 0) continue;
    const eq = part.indexOf("=");
    const rawKey = eq === -1 ? part : part.slice(0, eq);
    const rawValue = eq === -1 ? "" : part.slice(eq + 1);
    const key = decode(rawKey);
    if (key === "url" && !params.has("url")) {
      // A URL sent without encoding shows its scheme separator raw: it is kept as sent, and the parameters
      // after it that are not the API's belong to it.
      if (/^https?:\/\//i.test(rawValue)) rawUrl = [rawValue];
      params.set("url", rawUrl ? rawValue : decode(rawValue));
      continue;
    }
    if (rawUrl && !API_PARAMS.has(key)) {
      rawUrl.push(part);
      continue;
    }
    if (!params.has(key)) params.set(key, decode(rawValue));
  }
  if (rawUrl && rawUrl.length > 1) params.set("url", rawUrl.join("&"));
  return params;
}

/** The parsed query string of a request URL. */
export function requestQuery(url: string): QueryParams {
  const start = url.indexOf("?");
  return parseQuery(start === -1 ? "" : url.slice(start + 1));
}

/**
 * A query string read the standard way, for v2: no v1 client sends to it, so a `url` must be percent-encoded
 * and nothing after it is taken back into it (an unknown parameter is reported instead: see validQuery).
 * A parameter sent twice is refused: which of `limit=1&limit=2` the client meant is anyone's guess.
 */
export function plainRequestQuery(url: string): QueryParams {
  const start = url.indexOf("?");
  const params: QueryParams = new Map();
  if (start === -1) return params;
  for (const part of url.slice(start + 1).split("&")) {
    if (part.length === 0) continue;
    const eq = part.indexOf("=");
    const key = decode(eq === -1 ? part : part.slice(0, eq));
    if (params.has(key)) {
      const name = key.length > 64 ? `${key.slice(0, 64)}…` : key;
      throw new ApiError("invalid_parameter", 400, `${name}: sent more than once; send each parameter once.`);
    }
    params.set(key, decode(eq === -1 ? "" : part.slice(eq + 1)));
  }
  return params;
}

/** The API key from `apikey`, or `apiKey` as one client sends it. */
export function apiKeyParam(params: QueryParams): string | undefined {
  return params.get("apikey") || params.get("apiKey") || undefined;
}
