import type { ContentfulStatusCode, StatusCode } from "hono/utils/http-status";
import type { ApiError } from "./errors.ts";

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const DOTTED_PATH = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)+$/;
/** jQuery names callbacks after the page (`sc_` and the page URL's letters): long pages make long names. */
export const MAX_IDENTIFIER_CALLBACK = 1024;
export const MAX_DOTTED_CALLBACK = 128;

export function isValidCallback(name: string): boolean {
  return name.length <= MAX_IDENTIFIER_CALLBACK && (IDENTIFIER.test(name) || (name.length <= MAX_DOTTED_CALLBACK && DOTTED_PATH.test(name)));
}

type HeaderRecord = Record<string, string>;

/** The key travels in the query string, never in a cookie, so any origin may read every answer. */
const ANY_ORIGIN: HeaderRecord = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "X-Quota-Remaining, X-Sharecount-Cache, X-Sharecount-Stale, X-Sharecount-Sandbox, Retry-After",
};

/*
 * Answers are built as plain Responses with plain-object headers: the Node adapter writes those with one
 * writeHead, while headers set through the context become a Headers object first (a third of the cost of a
 * cached count answer).
 */

interface SendOptions {
  callback?: string;
  headers?: HeaderRecord;
}

/** JSON, or a JSONP script when `callback` is set (always HTTP 200, as JSONP clients cannot read a status). */
export function send(status: ContentfulStatusCode, body: unknown, options: SendOptions = {}): Response {
  return sendJson(status, JSON.stringify(body), options);
}

/** As `send`, for a body already serialized. */
export function sendJson(status: ContentfulStatusCode, json: string, options: SendOptions = {}): Response {
  const jsonp = options.callback !== undefined;
  // One object literal, then the extras: spreading several objects per answer shows up in profiles.
  const headers: HeaderRecord = {
    "Access-Control-Allow-Origin": ANY_ORIGIN["Access-Control-Allow-Origin"]!,
    "Access-Control-Expose-Headers": ANY_ORIGIN["Access-Control-Expose-Headers"]!,
    "X-Content-Type-Options": "nosniff",
    "Content-Type": jsonp ? "application/javascript; charset=utf-8" : "application/json; charset=utf-8",
  };
  for (const name in options.headers) headers[name] = options.headers[name]!;
  // The leading comment keeps a JSONP body from being read as anything but script (Rosetta-Flash-style attacks).
  return jsonp
    ? new Response(`/**/ ${options.callback}(${json});`, { status: 200, headers })
    : new Response(json, { status, headers });
}

export function sendError(error: ApiError, callback?: string): Response {
  return send(error.status, error.body(), { callback, headers: error.headers });
}

export function noContent(status: StatusCode): Response {
  return new Response(null, { status, headers: ANY_ORIGIN });
}

export function preflight(requestedHeaders: string | undefined): Response {
  return new Response(null, {
    status: 204,
    headers: {
      "Access-Control-Allow-Origin": "*",
      "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
      "Access-Control-Allow-Headers": requestedHeaders ?? "Content-Type",
      "Access-Control-Max-Age": "86400",
    },
  });
}
