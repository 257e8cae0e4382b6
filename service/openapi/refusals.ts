import { errorSchema } from "../../lib/v2/schemas.ts";

/**
 * The error answers of one operation, each status with the `Type`s the route answers it with (see
 * service/http/errors.ts and the route): listed per operation, so no status is shown where the route never
 * answers it. test/app/api-reference-statuses.test.ts provokes them on the running API and checks each here.
 */

type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 503;

export function refusals(byStatus: Partial<Record<ErrorStatus, string>>) {
  return Object.fromEntries(
    Object.entries(byStatus).map(([status, description]) => [status, { description, content: { "application/json": { schema: errorSchema } } }]),
  );
}

export const KEY_REFUSED = "`missing_api_key`, `invalid_api_key`: no key, or not a valid one (or a revoked one); `api_key_expired`: the key's expiry, or its grace after a roll, has passed";
export const UNAVAILABLE = "`service_unavailable`: the database (or Redis) cannot answer right now; retry after `Retry-After` seconds";
export const QUOTA_USED_UP = "`quota_exceeded`: today's quota is used up (the message says when it resets)";
export const NOT_WHITELISTED = "`domain_not_whitelisted`: the URL's host is off the key's enforced domain whitelist";
/** What every v2 route refuses in the query: v2 checks each parameter, and the key may come twice (header and `apikey`). */
export const V2_BAD_QUERY =
  "`invalid_parameter`: an unknown or invalid parameter, or two different keys (header and `apikey`); `jsonp_not_supported`: `callback` given (JSON only)";
export const JSON_BODY = {
  413: "`body_too_large`: the body is over 4 MiB",
  415: "`invalid_body`: the body is not sent as `application/json`",
} as const;

/** Every v2 route's refusals of the request itself; each adds its own. */
export const v2Refusals = (own: Partial<Record<Exclude<ErrorStatus, 401 | 503>, string>> = {}) =>
  refusals({ ...own, 400: own[400] ? `${V2_BAD_QUERY}; ${own[400]}` : V2_BAD_QUERY, 401: KEY_REFUSED, 503: UNAVAILABLE });
