import { z } from "zod";
import { grantableScopes } from "@/lib/members/roles";
import { userSource } from "@/dashboard/server/audit-source";
import { keyNotices } from "@/lib/keys/key-notices";
import { MAX_GRACE_SECONDS } from "@/lib/keys/api-keys";
import { dashboard } from "@/dashboard/server/context";
import { accountMail } from "@/dashboard/server/account-mail";
import { keyRowOf } from "@/dashboard/server/key-json";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";

const input = z.object({ id: z.string().max(100), graceSeconds: z.number().int().min(0).max(MAX_GRACE_SECONDS) });

/** A new key in place of this one, which works on for the grace chosen; the account is mailed. */
export const POST = signedInEndpoint({ need: "keys", input }, async ({ account, input }) => {
  const source = await userSource(account);
  const rolled = await dashboard().keys.roll(account.id, input.id, input.graceSeconds, grantableScopes(account.role), source, keyNotices(accountMail().notices, source.at).rolled);
  return Response.json({ key: rolled.key, row: keyRowOf(rolled.record) }, { headers: { "Cache-Control": "no-store" } });
});
