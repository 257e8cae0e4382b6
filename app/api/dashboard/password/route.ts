import { z } from "zod";
import { userSource } from "@/dashboard/server/audit-source";
import { passwordReset } from "@/dashboard/server/auth/password-reset";
import { rateLimiter, retryMinutes, takeFromLimits } from "@/dashboard/server/auth/rate-limit";
import { dashboard } from "@/dashboard/server/context";
import { DashboardError } from "@/dashboard/client/dashboard-error";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";
import { MAX_PASSWORD_LENGTH } from "@/lib/accounts/password-limits";
import { passwordProblem } from "@/lib/accounts/password-rule";
import type { MailWriter } from "@/lib/mail/outbox-store";

const input = z
  .object({
    // Absent for an account that signs in with GitHub or Google and has no password yet.
    currentPassword: z.string().max(1024).optional(),
    newPassword: z.string().max(MAX_PASSWORD_LENGTH),
    confirmPassword: z.string(),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { message: "The two new passwords differ.", path: ["confirmPassword"] });

// A stolen session must not be a way to guess the password (and so keep access after it is revoked).
const attempts = () => rateLimiter("password-change", 5, 15 * 60);

/**
 * Changes the password; this browser stays signed in, every other session of the account is signed out, and
 * the "password changed" notice is queued in the same transaction.
 */
export const POST = signedInEndpoint({ need: "self", input }, async ({ account, input }) => {
  const { accounts, clock } = dashboard();
  const problem = passwordProblem(input.newPassword, account.user.email);
  if (problem) throw new DashboardError("invalid_input", 422, problem);
  if (await accounts.hasPassword(account.user.id)) {
    const taken = await takeFromLimits([[attempts(), account.user.id]]);
    if (!taken.ok) throw new DashboardError("rate_limited", 429, `Too many attempts. Try again in ${retryMinutes(taken.retryAfterMs)} minute(s).`);
    const valid = await accounts.checkPassword(account.user.id, input.currentPassword ?? "");
    if (!valid) throw new DashboardError("wrong_password", 422, "The current password is not right.");
    await attempts().delete(account.user.id);
  }
  const notice = (tx: MailWriter) => passwordReset().queueChangedNotice(tx, account, clock.now());
  const change = { audit: await userSource(account), via: "settings", keepSessionId: account.sessionId, within: notice } as const;
  return { otherSessionsSignedOut: await accounts.setPassword(account.user.id, input.newPassword, change) };
});
