import { z } from "zod";
import { EVENT_TYPE_NAMES } from "../../../lib/alerts/alert-types.ts";

/**
 * The v2 webhook API's answers as the dashboard reads them. Parsing strips what is not named here, so a
 * secret reaches the browser only through the two answers that name it (create and roll).
 */

export const WEBHOOK_FORMATS = ["standard", "slack", "discord"] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

const eventType = z.enum(EVENT_TYPE_NAMES as [string, ...string[]]);
const instant = z.string();

export const endpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(eventType),
  format: z.enum(WEBHOOK_FORMATS),
  description: z.string().nullable().optional().transform((text) => text ?? null),
  enabled: z.boolean(),
  disabled_reason: z.string().nullable().optional().transform((text) => text ?? null),
  created_at: instant,
  last_success_at: instant.nullable().optional().transform((at) => at ?? null),
});
export type WebhookEndpoint = z.infer<typeof endpointSchema>;

export const endpointListSchema = z.object({ data: z.array(endpointSchema) });

/** The create answer: the only time the endpoint's signing secret is shown. */
export const createdEndpointSchema = z.object({ id: z.string(), url: z.string(), secret: z.string() });
export type CreatedEndpoint = z.infer<typeof createdEndpointSchema>;

export const rolledSecretSchema = z.object({ id: z.string(), secret: z.string(), previous_secret_expires_at: instant.nullable() });
export type RolledSecret = z.infer<typeof rolledSecretSchema>;

export const testSentSchema = z.object({ event_id: z.string() });

export const deliverySchema = z.object({
  id: z.string(),
  event_id: z.string(),
  type: z.string(),
  attempt: z.number().int().nonnegative(),
  status_code: z.number().int().nullable(),
  ok: z.boolean(),
  duration_ms: z.number().nonnegative().nullable(),
  error: z.string().nullable(),
  created_at: instant,
  next_attempt_at: instant.nullable(),
});
export type WebhookDelivery = z.infer<typeof deliverySchema>;

export const deliveryListSchema = z.object({ data: z.array(deliverySchema) });

export const eventPageSchema = z.object({
  data: z.array(z.object({ id: z.string(), type: z.string(), created_at: instant, data: z.unknown() })),
  next_cursor: z.string().nullable().optional(),
});
