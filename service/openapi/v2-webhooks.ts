import type { OpenAPIRegistry, RouteConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { EVENT_TYPE_NAMES, EVENT_TYPES } from "../../lib/alerts/alert-types.ts";
import {
  deliveriesAnswerSchema,
  deliveriesQuerySchema,
  eventPayloadSchema,
  eventsAnswerSchema,
  eventsQuerySchema,
  MAX_ENDPOINTS_PER_ACCOUNT,
  retryQueuedSchema,
  secretRolledSchema,
  testSentSchema,
  webhookCreateBodySchema,
  webhookCreatedSchema,
  webhookEndpointSchema,
  webhookKeyQuerySchema,
  webhookListSchema,
  webhookUpdateBodySchema,
} from "../../lib/v2/webhook-schemas.ts";
import { WEBHOOK_ACTIONS_PER_MINUTE } from "../../lib/webhooks/webhook-limits.ts";
import { v2Refusals } from "./refusals.ts";

/** The webhook endpoints' and events' paths, and the document's `webhooks`: one payload per event type. */

const json = (schema: z.ZodType, description: string) => ({ description, content: { "application/json": { schema } } });
const body = (schema: z.ZodType) => ({ content: { "application/json": { schema } } });
const endpointId = z.object({ id: z.string().meta({ description: "The endpoint's id (we_…)" }) });
const NOT_FOUND = "`webhook_not_found`: no such endpoint of this account";
const BODY = {
  413: "`body_too_large`: the body is over 64 KiB",
  415: "`invalid_body`: the body is not sent as `application/json`",
} as const;
const BAD_ENDPOINT =
  "`invalid_body`: not JSON, or not this shape (an unknown or repeated event type, a description over 200 characters, an unknown field); " +
  "`invalid_url`: the URL is not http(s), carries a user name or password, or names localhost or a private, loopback, link-local or reserved address";
const DISABLED = "`endpoint_disabled`: the endpoint is disabled (by its owner or after 5 days of failures): turn it on first";
const LIMITED = (perMinute: number, what: string) =>
  `\`rate_limited\`: the account asked for ${perMinute} ${what} in the last minute; \`Retry-After\` says when the next is allowed`;

export function registerWebhookPaths(path: (config: RouteConfig) => void, security: Record<string, string[]>[]) {
  const tags = ["v2"];
  const route = (config: Omit<RouteConfig, "tags" | "security">) => path({ ...config, tags, security });
  route({
    method: "post",
    path: "/v2/webhooks",
    summary: `Add a webhook endpoint (at most ${MAX_ENDPOINTS_PER_ACCOUNT} per account); its signing secret is shown only in this answer`,
    request: { query: webhookKeyQuerySchema, body: body(webhookCreateBodySchema) },
    responses: {
      201: json(webhookCreatedSchema, "The endpoint, with its secret"),
      ...v2Refusals({ 400: `${BAD_ENDPOINT}; \`too_many_endpoints\`: the account has ${MAX_ENDPOINTS_PER_ACCOUNT} endpoints already`, ...BODY }),
    },
  });
  route({
    method: "get",
    path: "/v2/webhooks",
    summary: "The account's webhook endpoints (never their secrets)",
    request: { query: webhookKeyQuerySchema },
    responses: { 200: json(webhookListSchema, "The endpoints"), ...v2Refusals() },
  });
  route({
    method: "get",
    path: "/v2/webhooks/{id}",
    summary: "One webhook endpoint (never its secret)",
    request: { params: endpointId, query: webhookKeyQuerySchema },
    responses: { 200: json(webhookEndpointSchema, "The endpoint"), ...v2Refusals({ 404: NOT_FOUND }) },
  });
  route({
    method: "patch",
    path: "/v2/webhooks/{id}",
    summary: "Change a webhook endpoint's url, events, description, or turn it off and on",
    request: { params: endpointId, query: webhookKeyQuerySchema, body: body(webhookUpdateBodySchema) },
    responses: {
      200: json(webhookEndpointSchema, "The endpoint as changed"),
      ...v2Refusals({ 400: `${BAD_ENDPOINT}; no field to change`, 404: NOT_FOUND, ...BODY }),
    },
  });
  route({
    method: "delete",
    path: "/v2/webhooks/{id}",
    summary: "Delete a webhook endpoint, its pending deliveries and its delivery log",
    request: { params: endpointId, query: webhookKeyQuerySchema },
    responses: { 204: { description: "Deleted" }, ...v2Refusals({ 404: NOT_FOUND }) },
  });
  route({
    method: "post",
    path: "/v2/webhooks/{id}/secret",
    summary: "Roll the endpoint's signing secret: the new one is shown only in this answer, and the old one keeps signing beside it for 24 hours",
    description: "During those 24 hours each delivery's `webhook-signature` holds two signatures (`v1,…` by each secret): a receiver checking either keeps working while it switches.",
    request: { params: endpointId, query: webhookKeyQuerySchema },
    responses: {
      200: json(secretRolledSchema, "The new secret"),
      ...v2Refusals({ 404: NOT_FOUND, 409: "`roll_conflict`: another roll of this endpoint happened at the same moment and this one's secret never took effect: roll again" }),
    },
  });
  route({
    method: "post",
    path: "/v2/webhooks/{id}/test",
    summary: "Send a `webhook.test` event to this endpoint only, now",
    description: "The event is also listed by `GET /v2/events`; its delivery shows in the endpoint's delivery log.",
    request: { params: endpointId, query: webhookKeyQuerySchema },
    responses: {
      202: json(testSentSchema, "The event was queued for the endpoint"),
      ...v2Refusals({ 404: NOT_FOUND, 409: DISABLED, 429: LIMITED(WEBHOOK_ACTIONS_PER_MINUTE.test, "tests") }),
    },
  });
  route({
    method: "get",
    path: "/v2/webhooks/{id}/deliveries",
    summary: "The endpoint's delivery log: each attempt to POST an event to it, newest first, a page at a time (cursor)",
    request: { params: endpointId, query: deliveriesQuerySchema },
    responses: { 200: json(deliveriesAnswerSchema, "A page"), ...v2Refusals({ 400: "`invalid_parameter`: a cursor that is not this log's", 404: NOT_FOUND }) },
  });
  route({
    method: "post",
    path: "/v2/webhooks/{id}/deliveries/{delivery_id}/retry",
    summary: "Send a delivery's event to the endpoint again now (`delivery_id`: an attempt's `id` from the delivery log)",
    description:
      "The attempt's delivery is due again at once, with the same `webhook-id`, whether it succeeded, failed for good or waits for its next try. " +
      "It is one more attempt: of a delivery still retrying it takes the next scheduled try's place (counting towards the 8); of one that ended, a single further try.",
    request: {
      params: endpointId.extend({ delivery_id: z.string().meta({ description: "An attempt's id from the delivery log" }) }),
      query: webhookKeyQuerySchema,
    },
    responses: {
      202: json(retryQueuedSchema, "Queued"),
      ...v2Refusals({
        404: `${NOT_FOUND}; \`delivery_not_found\`: no such attempt of this endpoint`,
        409: DISABLED,
        429: LIMITED(WEBHOOK_ACTIONS_PER_MINUTE.retry, "retries"),
      }),
    },
  });
  route({
    method: "get",
    path: "/v2/events",
    summary: "What happened to the account (the events its webhooks and mail are sent for), newest first, a page at a time (cursor)",
    request: { query: eventsQuerySchema },
    responses: {
      200: json(eventsAnswerSchema, "A page"),
      ...v2Refusals({ 400: "`invalid_parameter`: an unknown type, a limit out of 1 to 100, a cursor that is none of this account's events" }),
    },
  });
}

/** Standard Webhooks' headers, on every delivery. */
const standardHeaders = z.object({
  "webhook-id": z.string().meta({ description: "The event's id (evt_…): the same on every retry, so a receiver can drop repeats" }),
  "webhook-timestamp": z.string().meta({ description: "When this attempt was sent, in Unix seconds: refuse one too far from now (replays)" }),
  "webhook-signature": z.string().meta({
    description:
      "Space-separated `v1,<base64 HMAC-SHA256>` of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); two during the 24 hours after a roll",
  }),
});

export function registerEventWebhooks(registry: OpenAPIRegistry) {
  for (const type of EVENT_TYPE_NAMES) {
    registry.registerWebhook({
      method: "post",
      path: type,
      summary: EVENT_TYPES[type].title,
      description:
        "POSTed to each enabled endpoint listening for this type (format `standard`), signed as Standard Webhooks specify. " +
        "Endpoints of format `slack` or `discord` receive a chat message about the event instead.",
      request: { headers: standardHeaders, body: body(eventPayloadSchema(type)) },
      responses: { 200: { description: "Any 2xx acknowledges the event; any other answer, or none, is retried later" } },
    });
  }
}
