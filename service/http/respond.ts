import type { ServerResponse } from "node:http";
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

/** A body written as it is produced (the account export): only Hono's routes answer one, honouring backpressure. */
export type StreamedBody = ReadableStream<Uint8Array>;

/**
 * An answer as the endpoints build it: a status, plain-object headers (its own, never shared) and a body.
 * The single-URL count endpoints write it to Node's response themselves (api-listener.ts); the others hand it
 * to Hono as a Response.
 */
export interface Answer<Body extends string | StreamedBody = string> {
  status: number;
  headers: HeaderRecord;
  body: Body | null;
}

/** The key travels in the query string, never in a cookie, so any origin may read every answer. */
const ANY_ORIGIN: HeaderRecord = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "X-Quota-Remaining, X-Sharecount-Cache, X-Sharecount-Stale, X-Sharecount-Sandbox, X-Request-Id, Retry-After",
};

interface SendOptions {
  callback?: string;
  headers?: HeaderRecord;
}

/** JSON, or a JSONP script when `callback` is set (always HTTP 200, as JSONP clients cannot read a status). */
export function send(status: ContentfulStatusCode, body: unknown, options: SendOptions = {}): Answer {
  return sendJson(status, JSON.stringify(body), options);
}

/** As `send`, for a body already serialized. */
export function sendJson(status: ContentfulStatusCode, json: string, options: SendOptions = {}): Answer {
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
  return jsonp ? { status: 200, headers, body: `/**/ ${options.callback}(${json});` } : { status, headers, body: json };
}

export function sendError(error: ApiError, callback?: string): Answer {
  return send(error.status, error.body(), { callback, headers: error.headers });
}

export function noContent(status: StatusCode): Answer {
  return { status, headers: { ...ANY_ORIGIN }, body: null };
}

export function preflight(requestedHeaders: string | undefined): Answer {
  return {
    status: 204,
    headers: {
      "Access-Control-Allow-Origin": "*",
      "Access-Control-Allow-Methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
      "Access-Control-Allow-Headers": requestedHeaders ?? "Content-Type",
      "Access-Control-Max-Age": "86400",
    },
    body: null,
  };
}

/**
 * For Hono: a Response with plain-object headers, which the Node adapter writes with one writeHead (headers
 * set through the context would become a Headers object first, a third of the cost of a small answer).
 */
export function toResponse(answer: Answer<string | StreamedBody>): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

/** Straight to Node's response, as the Node adapter writes a Response: its headers, then Content-Length. */
export function writeAnswer(res: ServerResponse, answer: Answer): void {
  if (answer.body === null) {
    res.writeHead(answer.status, answer.headers).end();
    return;
  }
  answer.headers["Content-Length"] = String(Buffer.byteLength(answer.body));
  // Node leaves the body out of an answer to HEAD.
  res.writeHead(answer.status, answer.headers).end(answer.body);
}
