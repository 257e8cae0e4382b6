import { z } from "zod";
import { EVENT_TYPE_NAMES, type EventType } from "../../lib/alerts/alert-types.ts";
import { MAX_URL_LENGTH } from "../../lib/urls/url-length.ts";
import { WEBHOOK_FORMATS } from "../client/alerts/webhook-answers.ts";

/** What the endpoint forms send; the API checks the same again (and the URL's address) and says what it refuses. */
export const endpointFields = {
  url: z.string().trim().min(1, "Enter the endpoint's URL.").max(MAX_URL_LENGTH),
  events: z.array(z.enum(EVENT_TYPE_NAMES as [EventType, ...EventType[]])).min(1, "Choose at least one event.").max(EVENT_TYPE_NAMES.length),
  format: z.enum(WEBHOOK_FORMATS),
  description: z.string().trim().max(200).optional(),
};

/** An endpoint's id from the route (an opaque id the API issued). */
export const endpointId = z.string().min(1).max(100);
