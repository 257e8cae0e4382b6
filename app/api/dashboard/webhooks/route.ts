import { z } from "zod";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";
import { webhooksOf } from "@/dashboard/server/webhooks-api";
import { endpointFields } from "@/dashboard/server/webhook-input";

/** The account's webhook endpoints (never their secrets). */
export const GET = signedInEndpoint({ need: "read" }, async ({ api }) => ({ endpoints: await webhooksOf(await api()).list() }));

/** Adds an endpoint; the answer carries its signing secret, shown once and never again. */
export const POST = signedInEndpoint({ need: "settings", input: z.object(endpointFields) }, async ({ input, api }) => {
  const created = await webhooksOf(await api()).create({ ...input, description: input.description || undefined });
  return { id: created.id, url: created.url, secret: created.secret };
});
