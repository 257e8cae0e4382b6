import { z } from "zod";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";
import { webhooksOf } from "@/dashboard/server/webhooks-api";
import { endpointId } from "@/dashboard/server/webhook-input";

/** Sends the endpoint a webhook.test event (it shows in the delivery log). */
export const POST = signedInEndpoint({ need: "settings", input: z.object({ id: endpointId }) }, async ({ input, api }) => webhooksOf(await api()).test(input.id));
