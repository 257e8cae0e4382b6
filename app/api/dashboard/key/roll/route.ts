import { z } from "zod";
import { dashboard } from "@/dashboard/server/context";
import { maskApiKey } from "@/dashboard/client/format";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";

// The old key stops working at once, so a stray request must not roll it: the body has to say so.
const input = z.object({ confirm: z.literal(true) });

/** Replaces the API key; answers the new one (shown once) and its mask. */
export const POST = signedInEndpoint({ input }, async ({ account }) => {
  const apiKey = await dashboard().accounts.rollKeyOf(account.id);
  return { apiKey, apiKeyMask: maskApiKey(apiKey) };
});
