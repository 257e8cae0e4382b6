import { z } from "zod";
import { dashboard } from "@/dashboard/server/context";
import { memberActor, membersView, takeInviteMail } from "@/dashboard/server/members/members-view";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";
import { roleSchema } from "@/lib/members/roles";

/**
 * Invites an address with a role: a mail with a single-use link, valid 7 days. The invite limits are taken only
 * for an invite that passed every check (Invites.create asks takeInviteMail just before writing it).
 */
export const POST = signedInEndpoint({ need: "members", input: z.object({ email: z.string().trim().min(1).max(320), role: roleSchema }) }, async ({ account, input }) => {
  const invite = await dashboard().invites.create(account.id, await memberActor(account), input, takeInviteMail(account.id));
  return { invite, ...(await membersView(account)) };
});
