import { z } from "zod";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";
import { webhooksOf } from "@/dashboard/server/webhooks-api";
import { endpointId } from "@/dashboard/server/webhook-input";

/** Sends a delivery again now. */
export const POST = signedInEndpoint({ need: "settings", input: z.object({ id: endpointId, deliveryId: z.string().min(1).max(100) }) }, async ({ input, api }) => {
  await webhooksOf(await api()).retry(input.id, input.deliveryId);
  return { retried: input.deliveryId };
});
