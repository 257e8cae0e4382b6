import { z } from "zod";
import { dashboard } from "@/dashboard/server/context";
import { memberActor, membersView, takeInviteMail } from "@/dashboard/server/members/members-view";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";

/** Mails the invite again with a new link and 7 more days; the old link stops working. Limits as for an invite. */
export const POST = signedInEndpoint({ need: "members", input: z.object({ id: z.string().regex(/^inv_[0-9a-f]{24}$/) }) }, async ({ account, input }) => {
  await dashboard().invites.resend(account.id, await memberActor(account), input.id, takeInviteMail(account.id));
  return membersView(account);
});
