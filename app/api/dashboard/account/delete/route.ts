import { cookies } from "next/headers";
import { z } from "zod";
import { rateLimiter, retryMinutes, takeFromLimits } from "@/dashboard/server/auth/rate-limit";
import { requestInfo, sessionCookieName } from "@/dashboard/server/auth/password";
import { dashboard } from "@/dashboard/server/context";
import { DashboardError } from "@/dashboard/client/dashboard-error";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";
import { AccountDeletion } from "@/lib/accounts/account-deletion";
import { normalizeEmail } from "@/lib/accounts/email-address";
import { memberErrors } from "@/lib/members/member-errors";

const input = z.object({
  password: z.string().max(1024).optional(),
  // An account that signs in only with GitHub or Google has no password: it types its address instead.
  email: z.string().max(320).optional(),
});

// A stolen session must not be a way to guess the password, as for a password change.
const attempts = () => rateLimiter("account-delete", 5, 15 * 60);

/** The holder (an owner) deletes the account once its password (or, without one, its address) confirms it; this browser is signed out. */
export const POST = signedInEndpoint({ need: "ownership", input }, async ({ account, input }) => {
  // The account's row is also its holder's sign-in: another owner deleting it would delete that person's sign-in.
  if (account.user.id !== account.id) throw memberErrors.forbidden(`Only ${account.email}, whose sign-in this account is, can delete it.`);
  const context = dashboard();
  if (await context.accounts.hasPassword(account.id)) {
    // Taken before the password is checked, so simultaneous guesses check no more than the limit allows.
    const taken = await takeFromLimits([[attempts(), account.id]]);
    if (!taken.ok) throw new DashboardError("rate_limited", 429, `Too many attempts. Try again in ${retryMinutes(taken.retryAfterMs)} minute(s).`);
    if (!(await context.accounts.checkPassword(account.id, input.password ?? ""))) {
      throw new DashboardError("wrong_password", 422, "The password is not right.");
    }
    await attempts().delete(account.id);
  } else if (normalizeEmail(input.email ?? "") !== account.email) {
    throw new DashboardError("invalid_input", 422, "Type your account's email address exactly to confirm.");
  }
  const { env, prisma, outbox, clock, store, mail } = context;
  await new AccountDeletion({
    prisma,
    outbox,
    clock,
    bulk: store.bulk,
    linkOrigin: mail.linkOrigin,
    redis: env.REDIS_URL ? { url: env.REDIS_URL, prefix: env.REDIS_PREFIX } : null,
  }).delete(account.id);
  // The session row went with the account; the cookie goes too.
  (await cookies()).delete(sessionCookieName((await requestInfo()).secure));
  return { deleted: true };
});
