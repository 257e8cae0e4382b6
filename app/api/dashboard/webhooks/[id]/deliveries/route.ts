import { z } from "zod";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";
import { webhooksOf } from "@/dashboard/server/webhooks-api";
import { endpointId } from "@/dashboard/server/webhook-input";

/** The endpoint's delivery log, newest first. */
export const GET = signedInEndpoint({ need: "read", input: z.object({ id: endpointId }) }, async ({ input, api }) => ({
  deliveries: await webhooksOf(await api()).deliveries(input.id),
}));
