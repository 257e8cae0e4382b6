import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { ApiError } from "./errors.ts";

const CALLBACK = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/;
const MAX_CALLBACK_LENGTH = 128;

export function isValidCallback(name: string): boolean {
  return name.length <= MAX_CALLBACK_LENGTH && CALLBACK.test(name);
}

/** JSON, or a JSONP script when `callback` is set (always HTTP 200, as JSONP clients cannot read a status). */
export function send(c: Context, status: ContentfulStatusCode, body: unknown, callback?: string): Response {
  const json = JSON.stringify(body);
  c.header("X-Content-Type-Options", "nosniff");
  if (callback) {
    c.header("Content-Type", "application/javascript; charset=utf-8");
    // The leading comment keeps the body from being read as anything but script (Rosetta-Flash-style attacks).
    return c.body(`/**/ ${callback}(${json});`, 200);
  }
  c.header("Content-Type", "application/json; charset=utf-8");
  return c.body(json, status);
}

export function sendError(c: Context, error: ApiError, callback?: string): Response {
  for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
  return send(c, error.status, error.body(), callback);
}
