import { z } from "zod";
import { keyNotices } from "@/lib/keys/key-notices";
import { dashboard } from "@/dashboard/server/context";
import { accountMail } from "@/dashboard/server/account-mail";
import { keyRowOf } from "@/dashboard/server/key-json";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";

const input = z.object({ id: z.string().max(100) });

/** Revokes the key at once; the account is mailed in the same transaction. */
export const DELETE = signedInEndpoint({ input }, async ({ account, input }) => {
  const { keys, clock } = dashboard();
  const now = clock.now();
  return { row: keyRowOf(await keys.revoke(account.id, input.id, now, keyNotices(accountMail().notices, now).revoked)) };
});
