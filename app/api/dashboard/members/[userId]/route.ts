import { z } from "zod";
import { dashboard } from "@/dashboard/server/context";
import { memberActor, membersView } from "@/dashboard/server/members/members-view";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";
import { roleSchema } from "@/lib/members/roles";

const userId = z.string().min(1).max(100);

/** Gives a member another role (the verb refuses the owner role to non-owners, and demoting the last owner). */
export const PATCH = signedInEndpoint({ need: "members", input: z.object({ userId, role: roleSchema }) }, async ({ account, input }) => {
  await dashboard().members.setRole(account.id, await memberActor(account), input.userId, input.role);
  return membersView(account);
});

/** Removes a member; any member may remove themself (leave), except the account's holder and its last owner. */
export const DELETE = signedInEndpoint({ need: "read", input: z.object({ userId }) }, async ({ account, input }) => {
  await dashboard().members.remove(account.id, await memberActor(account), input.userId);
  return input.userId === account.user.id ? { left: true } : membersView(account);
});
