import { z } from "zod";
import { dashboard } from "@/dashboard/server/context";
import { accountMail } from "@/dashboard/server/account-mail";
import { maskApiKey } from "@/dashboard/client/format";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";

// The old key stops working at once, so a stray request must not roll it: the body has to say so.
const input = z.object({ confirm: z.literal(true) });

/** Replaces the API key and, in the same transaction, queues the notice to the account; answers the new key (shown once) and its mask. */
export const POST = signedInEndpoint({ input }, async ({ account }) => {
  const { accounts, clock } = dashboard();
  const now = clock.now();
  const apiKey = await accounts.rollKeyOf(account.id, (tx, rolled) => accountMail().notices.keyRolled(tx, rolled, now));
  return { apiKey, apiKeyMask: maskApiKey(apiKey) };
});
