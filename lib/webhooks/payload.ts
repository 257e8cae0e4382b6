import { Webhook } from "standardwebhooks";
import { eventBody, type StoredEvent } from "../alerts/alert-types.ts";
import type { SigningSecrets, WebhookFormat } from "./endpoint-store.ts";
import { summaryOf } from "./summary.ts";

export const USER_AGENT = "sharecount-webhooks (+https://github.com/sharecount)";

/** One POST of an event: its body and headers. */
export interface WebhookRequest {
  body: string;
  headers: Record<string, string>;
}

/**
 * What an endpoint receives at `attemptAt`. Standard Webhooks: `webhook-id` is the event's id on every retry
 * (receivers drop repeats by it), the timestamp is the attempt's, and while a rolled secret's predecessor is
 * still valid both sign, space-separated, so a receiver holding either verifies. Slack and Discord get their
 * incoming-webhook JSON, unsigned (they verify by the secret URL).
 */
export function webhookRequest(event: StoredEvent, format: WebhookFormat, secrets: SigningSecrets, attemptAt: number): WebhookRequest {
  const base = { "content-type": "application/json", "user-agent": USER_AGENT };
  if (format === "slack") return { body: JSON.stringify({ text: slackEscape(summaryOf(event)) }), headers: base };
  // No @everyone or role ping can come out of a URL or a reason in the text.
  if (format === "discord") return { body: JSON.stringify({ content: summaryOf(event).slice(0, 2000), allowed_mentions: { parse: [] } }), headers: base };
  const body = JSON.stringify(eventBody(event));
  const at = new Date(attemptAt);
  const signature = [secrets.current, secrets.previous]
    .filter((secret): secret is string => secret !== null)
    .map((secret) => new Webhook(secret).sign(event.id, at, body))
    .join(" ");
  return {
    body,
    headers: { ...base, "webhook-id": event.id, "webhook-timestamp": String(Math.floor(attemptAt / 1000)), "webhook-signature": signature },
  };
}

/** Slack reads &, < and > as markup (links, mentions): https://api.slack.com/reference/surfaces/formatting#escaping */
function slackEscape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
