import { z } from "zod";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";
import { webhooksOf } from "@/dashboard/server/webhooks-api";
import { endpointFields, endpointId } from "@/dashboard/server/webhook-input";

const change = z.object({ id: endpointId, enabled: z.boolean().optional(), events: endpointFields.events.optional() }).strict();

/** Turns an endpoint on or off, or changes its events. */
export const PATCH = signedInEndpoint({ need: "settings", input: change }, async ({ input: { id, ...rest }, api }) => {
  await webhooksOf(await api()).update(id, rest);
  return { id };
});

/** Removes an endpoint and its delivery log. */
export const DELETE = signedInEndpoint({ need: "settings", input: z.object({ id: endpointId }) }, async ({ input, api }) => {
  await webhooksOf(await api()).remove(input.id);
  return { removed: input.id };
});
