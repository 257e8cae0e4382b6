/**
 * One family of errors for the API, the dashboard (its server routes and its pages) and the command line:
 * every error the service means to report is a SharecountError with a code from one union. The API sends the
 * code as `Type`, the dashboard's routes as `error`, and the dashboard's pages choose what to say by it.
 */

/** The API's error types (the README's errors table lists each). */
export const API_ERROR_CODES = [
  "invalid_url",
  "missing_api_key",
  "invalid_api_key",
  "api_key_expired",
  "insufficient_scope",
  "too_many_keys",
  "key_not_found",
  "key_not_rollable",
  "quota_exceeded",
  "domain_not_whitelisted",
  "custom_ttl_not_allowed",
  "invalid_custom_ttl",
  "invalid_callback",
  "jsonp_not_supported",
  "no_jquery_cachebusting",
  "bulk_not_allowed",
  "bulk_limit_exceeded",
  "no_valid_urls",
  "missing_bulk_id",
  "bulk_not_found",
  "invalid_body",
  "body_too_large",
  "method_not_allowed",
  "bad_request",
  "request_too_large",
  "expectation_failed",
  "not_found",
  "tracked_limit_exceeded",
  "tracked_url_not_found",
  "import_not_found",
  "import_limit_exceeded",
  "export_in_progress",
  "invalid_parameter",
  "too_many_endpoints",
  "webhook_not_found",
  "delivery_not_found",
  "request_not_found",
  "endpoint_disabled",
  "roll_conflict",
  "rate_limited",
  "service_unavailable",
  "internal_error",
] as const;

/** What only the dashboard, the command line and start-up report. */
export const OTHER_ERROR_CODES = [
  /** A form or command-line value the domain refuses (with a message saying why). */
  "invalid_input",
  "cross_site",
  "no_key",
  "wrong_password",
  "session_not_found",
  /** The dashboard could not reach the API, or the API's answer did not have its documented shape. */
  "unreachable",
  "bad_answer",
  "invalid_configuration",
  /** A sitemap or feed could not be read (fetch refused or failed, too large, not well-formed). */
  "import_failed",
  /** Teams (lib/members/): a role too small, a full account, an invite used, expired or revoked. */
  "forbidden",
  /** A page made for one account sent a change after its browser switched to another. */
  "account_changed",
  "too_many_members",
  "already_member",
  "invite_closed",
] as const;

export type ApiErrorCode = (typeof API_ERROR_CODES)[number];
export type ErrorCode = ApiErrorCode | (typeof OTHER_ERROR_CODES)[number];

const apiCodes: ReadonlySet<string> = new Set(API_ERROR_CODES);
const allCodes: ReadonlySet<string> = new Set([...API_ERROR_CODES, ...OTHER_ERROR_CODES]);
export const isApiErrorCode = (value: unknown): value is ApiErrorCode => typeof value === "string" && apiCodes.has(value);
export const isErrorCode = (value: unknown): value is ErrorCode => typeof value === "string" && allCodes.has(value);

export class SharecountError<C extends ErrorCode = ErrorCode> extends Error {
  /** Each class of the family names itself here; see `kinds`. */
  static readonly kind: string = "SharecountError";
  /**
   * The kinds of the classes this error belongs to. Next.js may bundle one module twice in a process (the
   * dashboard context is shared across route bundles): `instanceof` checks these, so it holds whichever
   * copy of a class threw.
   */
  readonly kinds: readonly string[];

  constructor(
    readonly code: C,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    const kinds: string[] = [];
    for (let c: { kind?: string } = new.target; c !== Error && c !== null; c = Object.getPrototypeOf(c) as { kind?: string }) {
      if (Object.hasOwn(c, "kind") && c.kind) kinds.push(c.kind);
    }
    this.kinds = kinds;
    this.name = kinds[0] ?? "SharecountError";
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    const kinds = value instanceof Error ? (value as { kinds?: unknown }).kinds : undefined;
    return Array.isArray(kinds) && kinds.includes(this.kind);
  }
}

/** A backing service (the database, Redis) cannot be used right now: a 503 to clients, a retry to workers. */
export class UnavailableError extends SharecountError<"service_unavailable"> {
  static override readonly kind: string = "UnavailableError";

  constructor(message: string, options?: ErrorOptions) {
    super("service_unavailable", message, options);
  }
}
