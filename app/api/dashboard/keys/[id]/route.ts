import { z } from "zod";
import { grantableScopes } from "@/lib/members/roles";
import { userSource } from "@/dashboard/server/audit-source";
import { keyNotices } from "@/lib/keys/key-notices";
import { dashboard } from "@/dashboard/server/context";
import { accountMail } from "@/dashboard/server/account-mail";
import { keyRowOf } from "@/dashboard/server/key-json";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";

const input = z.object({ id: z.string().max(100) });

/** Revokes the key at once; the account is mailed in the same transaction. */
export const DELETE = signedInEndpoint({ need: "keys", input }, async ({ account, input }) => {
  const source = await userSource(account);
  return { row: keyRowOf(await dashboard().keys.revoke(account.id, input.id, grantableScopes(account.role), source, keyNotices(accountMail().notices, source.at).revoked)) };
});
