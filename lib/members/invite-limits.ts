import { normalizeEmail } from "../accounts/email-address.ts";

/**
 * The rate limits on invite mails, each a mail to an address the account chooses: per account (20 an hour), and
 * per address within each account (3 a day). The address's limit is the inviting account's own, so no account can
 * use up another's invitations to an address; an address is mailed at most 3 times a day by each account, and
 * the accounts that can mail it are bounded by sign-up's own limits. The dashboard takes both at once
 * (takeFromLimits), only for an invite that passed every check (Invites.create's `take`).
 */
export const INVITE_LIMITS = {
  perAccount: { name: "invite-account", points: 20, seconds: 3600 },
  perAddress: { name: "invite-account-address", points: 3, seconds: 24 * 3600 },
} as const;

export type InviteLimit = keyof typeof INVITE_LIMITS;

/** The key each limit counts an invite mail from `accountId` to `email` under. */
export function inviteLimitKeys(accountId: string, email: string): Record<InviteLimit, string> {
  return { perAccount: accountId, perAddress: `${accountId}:${normalizeEmail(email)}` };
}
