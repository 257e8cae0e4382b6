import { accountMail } from "@/dashboard/server/account-mail";
import { rateLimiter, retryMinutes, takeFromLimits } from "@/dashboard/server/auth/rate-limit";
import { dashboard } from "@/dashboard/server/context";
import { DashboardError } from "@/dashboard/client/dashboard-error";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";

// Each one mails the account's address: a session must not turn it into a mail cannon.
const resends = () => rateLimiter("email-verification-resend", 3, 3600);

/** Mails a new link that confirms the account's address (the older link stops working); taken from the limit first. */
export const POST = signedInEndpoint({ need: "self" }, async ({ account }) => {
  const taken = await takeFromLimits([[resends(), account.user.id]]);
  if (!taken.ok) throw new DashboardError("rate_limited", 429, `Too many links sent. Try again in ${retryMinutes(taken.retryAfterMs)} minute(s).`);
  return { status: await accountMail().verification.resend(account.user.id, dashboard().clock.now()) };
});
