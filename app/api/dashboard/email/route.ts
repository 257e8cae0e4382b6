import { z } from "zod";
import { accountMail } from "@/dashboard/server/account-mail";
import { rateLimiter, retryMinutes, takeFromLimits } from "@/dashboard/server/auth/rate-limit";
import { dashboard } from "@/dashboard/server/context";
import { DashboardError } from "@/dashboard/client/dashboard-error";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";
import { emailAddress } from "@/lib/accounts/email-address";

const input = z.object({ email: z.string().max(1024), password: z.string().max(1024) });

// Each request mails two addresses and checks a password: a stolen session must not do either at will.
const requests = () => rateLimiter("email-change", 5, 3600);

/**
 * Asks to move the account to another address: needs the account's password, then mails the new address a
 * link that makes the change and the current address a notice. The account keeps its address until the link
 * is opened. An account without a password (GitHub or Google sign-in) sets one first: a session alone is not
 * enough to hand the account's mail to another address.
 */
export const POST = signedInEndpoint({ need: "self", input }, async ({ account, input }) => {
  const { accounts, clock } = dashboard();
  const email = emailAddress.safeParse(input.email);
  if (!email.success) throw new DashboardError("invalid_input", 422, email.error.issues[0]?.message ?? "Enter a valid email address.");
  if (!(await accounts.hasPassword(account.user.id))) {
    throw new DashboardError("invalid_input", 422, "Set a password first (in the card above): changing the address asks for it.");
  }
  const taken = await takeFromLimits([[requests(), account.user.id]]);
  if (!taken.ok) throw new DashboardError("rate_limited", 429, `Too many attempts. Try again in ${retryMinutes(taken.retryAfterMs)} minute(s).`);
  if (!(await accounts.checkPassword(account.user.id, input.password))) throw new DashboardError("wrong_password", 422, "The password is not right.");
  const now = clock.now();
  const change = accountMail().change;
  const result = await change.request(account.user.id, email.data, now);
  if (!result.ok) throw new DashboardError("invalid_input", 422, result.error);
  return { pending: await change.pendingOf(account.user.id, now) };
});
