import "server-only";
import type { Invite, TakeInviteMail } from "../../../lib/members/invites.ts";
import { INVITE_LIMITS, inviteLimitKeys, type InviteLimit } from "../../../lib/members/invite-limits.ts";
import type { Member } from "../../../lib/members/members.ts";
import type { Role } from "../../../lib/members/roles.ts";
import type { CurrentAccount } from "../auth/current-account.ts";
import { dashboard } from "../context.ts";
import { userSource } from "../audit-source.ts";
import { DashboardError } from "../../client/dashboard-error.ts";
import { giveBack, rateLimiter, retryMinutes, takeFromLimits, type Limit } from "../auth/rate-limit.ts";

/** What the Members page shows and what its routes answer. */
export interface MembersView {
  members: Member[];
  invites: Invite[];
  /** The signed-in user's id and role here: what the page offers them. */
  self: { userId: string; role: Role };
}

export async function membersView(account: CurrentAccount): Promise<MembersView> {
  const { members, invites, clock } = dashboard();
  const [list, open] = await Promise.all([members.list(account.id), invites.list(account.id, clock.now())]);
  return { members: list, invites: open, self: { userId: account.user.id, role: account.role } };
}

/** The signed-in user as the member verbs take them: their role is read again inside each change. */
export async function memberActor(account: CurrentAccount) {
  return { userId: account.user.id, source: await userSource(account) };
}

const limiter = (limit: InviteLimit) => rateLimiter(INVITE_LIMITS[limit].name, INVITE_LIMITS[limit].points, INVITE_LIMITS[limit].seconds);

/**
 * For Invites.create and resend: takes one invite mail to `email` from the account's limits (lib/members/invite-limits.ts),
 * both at once, or refuses with when to try again. The verbs ask only once the invite passed every check, and give
 * the mail back should its write fail.
 */
export function takeInviteMail(accountId: string): TakeInviteMail {
  return async (email) => {
    const keys = inviteLimitKeys(accountId, email);
    const limits: Limit[] = [
      [limiter("perAccount"), keys.perAccount],
      [limiter("perAddress"), keys.perAddress],
    ];
    const taken = await takeFromLimits(limits);
    if (!taken.ok) throw new DashboardError("rate_limited", 429, `Too many invitations for now. Try again in ${retryMinutes(taken.retryAfterMs)} minute(s).`);
    return () => giveBack(limits);
  };
}
