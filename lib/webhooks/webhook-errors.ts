import { SharecountError } from "../errors.ts";

/** What the webhook verbs refuse; the API answers each with its status (service/http/errors.ts). */
export type WebhookErrorCode = "invalid_url" | "invalid_parameter" | "too_many_endpoints" | "webhook_not_found" | "delivery_not_found" | "endpoint_disabled" | "roll_conflict" | "rate_limited";

export class WebhookError extends SharecountError<WebhookErrorCode> {
  static override readonly kind: string = "WebhookError";

  constructor(
    code: WebhookErrorCode,
    message: string,
    /** For `rate_limited`: how long until the next one is allowed. */
    readonly retryAfterMs?: number,
  ) {
    super(code, message);
  }
}

export const webhookErrors = {
  notFound: () => new WebhookError("webhook_not_found", "No webhook endpoint with this id for this account."),
  deliveryNotFound: () => new WebhookError("delivery_not_found", "No delivery with this id for this webhook endpoint."),
  tooMany: (max: number) =>
    new WebhookError("too_many_endpoints", `An account has at most ${max} webhook endpoints: delete one (DELETE /v2/webhooks/{id}) before adding another.`),
  disabled: (reason: string | null) =>
    new WebhookError(
      "endpoint_disabled",
      `The endpoint is disabled${reason ? ` (${reason})` : ""}: nothing is sent to it. Turn it on with PATCH /v2/webhooks/{id} {"enabled": true} first.`,
    ),
  rateLimited: (action: "test" | "retry", perMinute: number, retryAfterMs: number) =>
    new WebhookError(
      "rate_limited",
      `An account may send ${perMinute} webhook ${action === "test" ? "tests" : "retries"} a minute: try again in ${Math.max(1, Math.ceil(retryAfterMs / 1000))} s.`,
      retryAfterMs,
    ),
  rollConflict: () =>
    new WebhookError("roll_conflict", "The secret was rolled by another request at the same moment, so this roll's secret never took effect: roll again."),
};
