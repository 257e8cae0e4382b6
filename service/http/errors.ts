import { isRedisUnavailableError } from "../../lib/redis/redis.ts";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ApiVersion } from "../counts/count-object.ts";
import { SharecountError, UnavailableError, type ApiErrorCode } from "../../lib/errors.ts";
import { WebhookError, type WebhookErrorCode } from "../../lib/webhooks/webhook-errors.ts";
import { KeyError, type KeyErrorCode } from "../../lib/keys/key-errors.ts";
import { log } from "../../lib/log/log.ts";

/** One error of the API: its code (the wire's `Type`), a message for people, and its HTTP status. */
export class ApiError extends SharecountError<ApiErrorCode> {
  static override readonly kind: string = "ApiError";

  constructor(
    code: ApiErrorCode,
    readonly status: ContentfulStatusCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(code, message);
  }

  body() {
    return { Error: this.message, Type: this.code };
  }
}

/** Every error the API answers, in one place (the README's errors table lists the same). */
export const apiErrors = {
  invalidUrl: (reason: string) =>
    new ApiError("invalid_url", 400, `Not a valid URL: ${reason}. Send a complete URL with http:// or https://, percent-encoded.`),
  missingApiKey: () =>
    new ApiError("missing_api_key", 401, "An API key is required: add apikey=<your key> to the query string."),
  invalidApiKey: () => new ApiError("invalid_api_key", 401, "The API key is not valid (it may have been revoked or rolled)."),
  apiKeyExpired: (at: number) =>
    new ApiError("api_key_expired", 401, `The API key expired at ${new Date(at).toISOString()}: use another key, or create one (POST /v2/keys, or the dashboard's API keys page).`),
  insufficientScope: (scope: string) =>
    new ApiError("insufficient_scope", 403, `This key lacks the scope ${scope}, which this endpoint needs: use a key that has it, or create one.`),
  quotaExceeded: (version: ApiVersion, dailyQuota: number, resetsAt: number, timeZone: string) =>
    new ApiError(
      "quota_exceeded",
      version === "1.0" ? 401 : 403,
      `Daily quota of ${dailyQuota} requests used up. It resets at ${new Date(resetsAt).toISOString()} ` +
        `(midnight ${timeZone}); retry after that.`,
      { "Retry-After": String(Math.max(1, Math.ceil((resetsAt - Date.now()) / 1000))) },
    ),
  domainNotWhitelisted: (host: string) =>
    new ApiError(
      "domain_not_whitelisted",
      403,
      `The domain ${host} is not on this account's domain whitelist, which is enforced for this key.`,
    ),
  customTtlNotAllowed: (plan: string) =>
    new ApiError("custom_ttl_not_allowed", 403, `custom_ttl is available on the dedicated plan; this key is on ${plan}.`),
  invalidCustomTtl: (max: number) =>
    new ApiError("invalid_custom_ttl", 400, `custom_ttl must be a whole number of seconds from 0 to ${max}.`),
  invalidCallback: () =>
    new ApiError(
      "invalid_callback",
      400,
      "callback must be a JavaScript function name (letters, digits, _ and $; at most 1,024 characters) or a dotted path of such names (at most 128).",
    ),
  jsonpNotSupported: () =>
    new ApiError("jsonp_not_supported", 400, "JSONP (callback) is only available on the single-URL endpoints (/v1.0/ and /v1.1/)."),
  noJqueryCacheBusting: () =>
    new ApiError(
      "no_jquery_cachebusting",
      200,
      "JSONP requests with jQuery's cache-busting parameter (_) are refused: set cache: true in the jQuery call.",
    ),
  bulkNotAllowed: (plan: string) =>
    new ApiError("bulk_not_allowed", 403, `Bulk jobs need a paid plan (plus, business or dedicated); this key is on ${plan}.`),
  // Reading stops at the first URL past the limit, so how far past is not known.
  bulkLimitExceeded: (limit: number) =>
    new ApiError(
      "bulk_limit_exceeded",
      400,
      `More than ${limit} URLs: this plan's batch limit is ${limit} valid, distinct URLs per job. Split the list and submit each part.`,
    ),
  noValidUrls: () =>
    new ApiError("no_valid_urls", 400, "The body holds no valid URL: send one complete http(s) URL per line in urls."),
  missingBulkId: () => new ApiError("missing_bulk_id", 400, "bulk_id is required: the id returned when the job was submitted."),
  bulkNotFound: () =>
    new ApiError("bulk_not_found", 404, "No bulk job with this bulk_id for this API key (it may have expired)."),
  bodyTooLarge: (max: number) => new ApiError("body_too_large", 413, `The request body is over ${max} bytes.`),
  methodNotAllowed: (allow: string) =>
    new ApiError("method_not_allowed", 405, `This endpoint answers ${allow} only.`, { Allow: allow }),
  // Refused by the HTTP server before any route (front-door.ts).
  badRequest: (reason: string) => new ApiError("bad_request", 400, reason),
  headersTooLarge: () => new ApiError("request_too_large", 431, "The request headers or URL are too large."),
  expectationFailed: () => new ApiError("expectation_failed", 417, "Only Expect: 100-continue is supported."),
  connectNotSupported: () => new ApiError("method_not_allowed", 405, "CONNECT is not supported: this is not a proxy."),
  notFound: () => new ApiError("not_found", 404, "No such API endpoint. See /v1.0/ and /v1.1/ in the API reference."),
  serviceUnavailable: () =>
    new ApiError("service_unavailable", 503, "The service cannot reach its database right now; retry shortly.", {
      "Retry-After": "5",
    }),
  internal: () => new ApiError("internal_error", 500, "Something went wrong on our side; the request was not counted."),
};

const WEBHOOK_STATUS: Record<WebhookErrorCode, ContentfulStatusCode> = {
  invalid_url: 400,
  invalid_parameter: 400,
  too_many_endpoints: 400,
  webhook_not_found: 404,
  delivery_not_found: 404,
  endpoint_disabled: 409,
  roll_conflict: 409,
  rate_limited: 429,
};

const KEY_STATUS: Record<KeyErrorCode, ContentfulStatusCode> = {
  invalid_parameter: 400,
  too_many_keys: 400,
  insufficient_scope: 403,
  key_not_found: 404,
  key_not_rollable: 409,
};

/**
 * Anything thrown while answering becomes an API error: a refusal of the webhook verbs its status, a database
 * (or Redis) outage a 503, anything else a logged 500.
 */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof WebhookError) {
    const wait: Record<string, string> = error.retryAfterMs === undefined ? {} : { "Retry-After": String(Math.max(1, Math.ceil(error.retryAfterMs / 1000))) };
    return new ApiError(error.code, WEBHOOK_STATUS[error.code], error.message, wait);
  }
  if (error instanceof KeyError) return new ApiError(error.code, KEY_STATUS[error.code], error.message);
  if (error instanceof UnavailableError || isRedisUnavailableError(error)) return apiErrors.serviceUnavailable();
  log.error({ event: "unexpected_error", err: error }, "unexpected error while answering a request");
  return apiErrors.internal();
}
