import { z } from "zod";
import { dashboard } from "@/dashboard/server/context";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";
import { memberErrors } from "@/lib/members/member-errors";

/** Makes this browser work in another account the user belongs to (the header's account switcher). */
export const POST = signedInEndpoint({ need: "self", input: z.object({ accountId: z.string().min(1).max(100) }) }, async ({ account, input }) => {
  if (!(await dashboard().sessions.switchTo(account.sessionId, account.user.id, input.accountId))) throw memberErrors.notFound("member");
  return { accountId: input.accountId };
});
