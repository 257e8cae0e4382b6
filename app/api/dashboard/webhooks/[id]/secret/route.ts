import { z } from "zod";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";
import { webhooksOf } from "@/dashboard/server/webhooks-api";
import { endpointId } from "@/dashboard/server/webhook-input";

/** A new signing secret, shown once; the old one keeps verifying until `previous_secret_expires_at`. */
export const POST = signedInEndpoint({ need: "settings", input: z.object({ id: endpointId }) }, async ({ input, api }) => webhooksOf(await api()).rollSecret(input.id));
