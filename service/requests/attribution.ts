import type { IncomingMessage } from "node:http";
import type { RequestLogRow } from "../../lib/store/requests.ts";

/**
 * Which account (and key) a request belongs to, recorded when its key is checked, and what it spent. The record
 * is the log row itself, filled in as the request goes (see RequestLog.record): the hot path allocates nothing
 * more. Requests no key named (a missing or bad key) have none and are not logged.
 */
const attributions = new WeakMap<IncomingMessage, RequestLogRow>();

/** `req` was made with a key of `accountId` (`keyId`: which key, once keys have ids). */
export function attributeRequest(req: IncomingMessage, accountId: string, keyId: string | null): void {
  attributions.set(req, {
    id: "",
    accountId,
    time: 0,
    keyId,
    method: "",
    path: "",
    query: "",
    status: 0,
    errorType: null,
    durationMs: 0,
    url: null,
    quotaSpent: 0,
    ip: "",
    userAgent: null,
  });
}

/** `req` took `queries` of its account's daily quota. */
export function spendQuota(req: IncomingMessage, queries: number): void {
  const row = attributions.get(req);
  if (row) row.quotaSpent += queries;
}

/** `req` was answered with the error object of this `Type`. */
export function noteErrorType(req: IncomingMessage, type: string): void {
  const row = attributions.get(req);
  if (row) row.errorType = type;
}

/** The row of an attributed request (once: a second call answers null), or null. */
export function takeAttribution(req: IncomingMessage): RequestLogRow | null {
  const row = attributions.get(req);
  if (!row) return null;
  attributions.delete(req);
  return row;
}
