import { z } from "zod";
import { ENDPOINT_EVENT_TYPES, MAX_DESCRIPTION_LENGTH } from "../../lib/v2/webhook-schemas.ts";
import { WEBHOOK_FORMATS } from "../../lib/webhooks/endpoint-store.ts";
import { MAX_WEBHOOK_URL_LENGTH } from "../../lib/webhooks/webhook-url.ts";

/** What the endpoint forms send; the API checks the same again (and the URL's address) and says what it refuses. */
export const endpointFields = {
  url: z.string().trim().min(1, "Enter the endpoint's URL.").max(MAX_WEBHOOK_URL_LENGTH),
  events: z.array(z.enum(ENDPOINT_EVENT_TYPES)).min(1, "Choose at least one event.").max(ENDPOINT_EVENT_TYPES.length),
  format: z.enum(WEBHOOK_FORMATS),
  description: z.string().trim().max(MAX_DESCRIPTION_LENGTH).optional(),
};

/** An endpoint's id from the route (an opaque id the API issued). */
export const endpointId = z.string().min(1).max(100);
