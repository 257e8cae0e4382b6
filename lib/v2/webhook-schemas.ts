import { z } from "zod";
import { EVENT_TYPE_NAMES, EVENT_TYPES, type EventType } from "../alerts/alert-types.ts";
import { WEBHOOK_FORMATS } from "../webhooks/endpoint-store.ts";
import { MAX_WEBHOOK_URL_LENGTH } from "../webhooks/webhook-url.ts";
import { apikey, count, queryInteger } from "./schemas.ts";

/** API v2's webhook endpoints, their delivery log and the event list: requests and answers. */

/** What an endpoint can listen for: every type but the test, which goes only to the endpoint it tests. */
export const ENDPOINT_EVENT_TYPES = EVENT_TYPE_NAMES.filter((type) => type !== "webhook.test") as Exclude<EventType, "webhook.test">[];
export const MAX_DESCRIPTION_LENGTH = 200;
export const MAX_ENDPOINTS_PER_ACCOUNT = 20;

const at = z.iso.datetime();
const endpointUrl = z
  .string()
  .min(1, "url must not be empty")
  .max(MAX_WEBHOOK_URL_LENGTH, `url is over ${MAX_WEBHOOK_URL_LENGTH} characters`)
  .meta({
    description: `Where events are POSTed: an http(s) URL of a public host (no credentials in it), at most ${MAX_WEBHOOK_URL_LENGTH} characters`,
    example: "https://example.com/hooks/sharecount",
  });
const endpointEvents = z
  .array(z.enum(ENDPOINT_EVENT_TYPES, { error: () => `not an event type: one of ${ENDPOINT_EVENT_TYPES.join(", ")}` }))
  .min(1, "events must name at least one event type")
  .max(ENDPOINT_EVENT_TYPES.length)
  .refine((types) => new Set(types).size === types.length, "events names a type twice")
  .meta({ description: "The event types sent to the endpoint (each at most once)", example: ["bulk.completed"] });
const description = z
  .string()
  .max(MAX_DESCRIPTION_LENGTH, `description is over ${MAX_DESCRIPTION_LENGTH} characters`)
  .refine((text) => !/[\u0000-\u001f\u007f]/.test(text), "description may not contain control characters")
  .nullable()
  .meta({ description: `A note for people, at most ${MAX_DESCRIPTION_LENGTH} characters` });

export const webhookCreateBodySchema = z
  .strictObject({
    url: endpointUrl,
    events: endpointEvents,
    format: z.enum(WEBHOOK_FORMATS).default("standard").meta({
      description: "standard: Standard Webhooks' signed JSON body; slack or discord: a message for an incoming-webhook URL of theirs",
    }),
    description: description.optional(),
  })
  .meta({ id: "WebhookCreateRequest" });

export const webhookUpdateBodySchema = z
  .strictObject({
    url: endpointUrl.optional(),
    events: endpointEvents.optional(),
    enabled: z.boolean().optional().meta({ description: "false stops deliveries; true turns the endpoint on again (also one the service disabled)" }),
    description: description.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, "send at least one of url, events, enabled or description")
  .meta({ id: "WebhookUpdateRequest", description: "The fields to change; the others stay" });

export const webhookEndpointSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.enum(ENDPOINT_EVENT_TYPES)),
    format: z.enum(WEBHOOK_FORMATS),
    description: z.string().nullable(),
    enabled: z.boolean(),
    disabled_reason: z.string().nullable().meta({ description: "Why the service turned it off (5 days without a successful delivery); null when on or turned off by its owner" }),
    created_at: at,
    last_success_at: at.nullable(),
  })
  .meta({ id: "WebhookEndpoint", description: "A webhook endpoint; its secret is never shown again after creation or a roll" });

export const webhookCreatedSchema = webhookEndpointSchema
  .extend({ secret: z.string().meta({ description: "whsec_…: verifies the signatures. Shown only now: store it", example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" }) })
  .meta({ id: "WebhookEndpointCreated" });

export const webhookListSchema = z.object({ data: z.array(webhookEndpointSchema) }).meta({ id: "WebhookEndpointList", description: "Oldest first" });

export const secretRolledSchema = z
  .object({
    id: z.string(),
    secret: z.string().meta({ description: "The new whsec_… secret, shown only now" }),
    previous_secret_expires_at: at.meta({ description: "Until then deliveries carry a signature by the old secret too" }),
  })
  .meta({ id: "WebhookSecretRolled" });

export const webhookKeyQuerySchema = z.strictObject({ apikey });

const pageLimit = queryInteger(1, 100).default(20).meta({ description: "At most this many (1 to 100, default 20)" });
const cursor = z.string().max(200).optional().meta({ description: "next_cursor of the previous page" });

export const deliveriesQuerySchema = z.strictObject({ apikey, limit: pageLimit, cursor });

export const deliveryAttemptSchema = z
  .object({
    id: z.string().meta({ description: "The attempt's id: POST …/deliveries/{id}/retry sends its event again" }),
    event_id: z.string().meta({ description: "The event's id, also the webhook-id header of every attempt to send it" }),
    type: z.enum(EVENT_TYPE_NAMES),
    attempt: z.number().int().positive().meta({ description: "1 for the first POST of this event to this endpoint, then 2, …" }),
    status_code: z.number().int().nullable().meta({ description: "The endpoint's HTTP status; null when none came (timeout, refused connection)" }),
    ok: z.boolean().meta({ description: "A 2xx arrived" }),
    duration_ms: count,
    error: z.string().nullable().meta({ description: "Why it failed, for people" }),
    created_at: at,
    next_attempt_at: at.nullable().meta({ description: "When it is tried again; null when this was the last try (or it succeeded)" }),
  })
  .meta({ id: "WebhookDeliveryAttempt" });

export const deliveriesAnswerSchema = z
  .object({ data: z.array(deliveryAttemptSchema), next_cursor: z.string().nullable() })
  .meta({ id: "WebhookDeliveryLog", description: "The endpoint's attempts, newest first" });

export const testSentSchema = z.object({ event_id: z.string() }).meta({ id: "WebhookTestSent" });

export const retryQueuedSchema = z
  .object({
    event_id: z.string(),
    status: z.enum(["queued", "in_flight"]).meta({ description: "queued: sent again now; in_flight: a worker is sending it right now (its attempt shows in the log shortly)" }),
  })
  .meta({ id: "WebhookRetryQueued" });

export const eventsQuerySchema = z.strictObject({
  apikey,
  type: z.enum(EVENT_TYPE_NAMES).optional().meta({ description: "Only events of this type" }),
  limit: pageLimit,
  cursor,
});

export const eventSchema = z
  .object({
    id: z.string(),
    type: z.enum(EVENT_TYPE_NAMES),
    created_at: at,
    data: z.record(z.string(), z.unknown()).meta({ description: "The type's data, as its webhook payload carries it (see the document's webhooks)" }),
  })
  .meta({ id: "Event" });

export const eventsAnswerSchema = z.object({ data: z.array(eventSchema), next_cursor: z.string().nullable() }).meta({ id: "EventList", description: "Newest first" });

/** The body POSTed for an event of `type`: Standard Webhooks' `{type, timestamp, data}`. */
export const eventPayloadSchema = (type: EventType) =>
  z.object({ type: z.literal(type), timestamp: at.meta({ description: "When the event happened" }), data: EVENT_TYPES[type].data }).meta({ description: EVENT_TYPES[type].title });
