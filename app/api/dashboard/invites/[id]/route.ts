import { z } from "zod";
import { dashboard } from "@/dashboard/server/context";
import { memberActor, membersView } from "@/dashboard/server/members/members-view";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";

/** Revokes an open invite: its link stops working. */
export const DELETE = signedInEndpoint({ need: "members", input: z.object({ id: z.string().regex(/^inv_[0-9a-f]{24}$/) }) }, async ({ account, input }) => {
  await dashboard().invites.revoke(account.id, await memberActor(account), input.id);
  return membersView(account);
});
