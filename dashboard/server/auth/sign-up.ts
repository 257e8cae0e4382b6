import "server-only";
import { AccountError } from "../../../lib/accounts/accounts.ts";
import { accountMail } from "../account-mail.ts";
import { dashboard } from "../context.ts";
import { requestInfo, startSession } from "./password.ts";
import { rateLimiter, retryMinutes, takeFromLimits } from "./rate-limit.ts";

/** Every account comes with a free daily quota: one address may not open them by the dozen. */
const perAddress = () => rateLimiter("sign-up-address", 5, 3600);

export type SignUpResult = { ok: true } | { ok: false; error: string };

/**
 * Creates a free account with a password, and in the same transaction the link that confirms its address and
 * the mail that carries it; then signs it in. Rate limited per client address (taken before the
 * account is created, so simultaneous sign-ups cannot pass together); an email that is taken, also by a
 * sign-up racing this one, gets the same answer as any other refusal, which does not say who has an account.
 */
export async function signUpWithPassword(email: string, password: string): Promise<SignUpResult> {
  const { ip } = await requestInfo();
  const taken = await takeFromLimits([[perAddress(), ip]]);
  if (!taken.ok) return { ok: false, error: `Too many new accounts from your network. Try again in ${retryMinutes(taken.retryAfterMs)} minute(s).` };
  try {
    const { accounts, clock } = dashboard();
    const now = clock.now();
    const { account } = await accounts.create({ email, password, plan: "free" }, (tx, created) => accountMail().verification.send(tx, created, now));
    await startSession(account.id, "password");
    return { ok: true };
  } catch (error) {
    if (!(error instanceof AccountError)) throw error;
    return { ok: false, error: /already exists/.test(error.message) ? "Could not create an account with this email. If it is yours, sign in instead." : error.message };
  }
}
