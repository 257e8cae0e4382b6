import { z } from "zod";
import { userSource } from "@/dashboard/server/audit-source";
import { dashboard } from "@/dashboard/server/context";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";

/** Joins the signed-in user to the invite's account and makes this browser work in it. */
export const POST = signedInEndpoint({ need: "self", input: z.object({ token: z.string().regex(/^[\w-]{43}$/) }) }, async ({ account, input }) => {
  const { invites, sessions } = dashboard();
  const accountId = await invites.accept(input.token, account.user, await userSource(account));
  await sessions.switchTo(account.sessionId, account.user.id, accountId);
  return { accountId };
});
