import "server-only";
import { recordFailedSignIn, type SignInMethod } from "./sign-in-audit.ts";
import { SIGN_IN_METHOD } from "./adapter.ts";
import { randomBytes } from "node:crypto";
import { cookies, headers } from "next/headers";
import { CLIENT_IP_HEADER, limitKeyOf } from "../../../lib/security/client-ip.ts";
import { giveBack, rateLimiter, retryMinutes, takeFromLimits } from "./rate-limit.ts";
import { normalizeEmail } from "../../../lib/accounts/email-address.ts";
import { dashboard } from "../context.ts";
import { sharecountAdapter } from "./adapter.ts";
import { SESSION_MAX_AGE_SECONDS } from "./auth.ts";

// Per email and address: guessing one account's password; per address: trying many accounts.
const perAccount = () => rateLimiter("sign-in-account", 5, 15 * 60);
const perAddress = () => rateLimiter("sign-in-address", 50, 15 * 60);

export type PasswordSignInResult = { ok: true } | { ok: false; error: string };

/**
 * Who is asking, as the rate limits count clients (their address, or an IPv6 address's /64: see client-ip.ts),
 * their browser, and whether they came over HTTPS.
 */
export async function requestInfo() {
  const h = await headers();
  const publicUrl = dashboard().env.SHARECOUNT_PUBLIC_URL;
  return {
    ip: limitKeyOf(h.get(CLIENT_IP_HEADER) ?? "unknown"),
    userAgent: h.get("user-agent")?.slice(0, 300) ?? null,
    // As Auth.js decides which session cookie to read: by the public URL's scheme, else by the request's.
    secure: publicUrl ? publicUrl.startsWith("https:") : h.get("x-forwarded-proto") === "https",
  };
}

/** Auth.js's cookie name, so Auth.js finds and reads the sessions made here like its own. */
export function sessionCookieName(secure: boolean): string {
  return `${secure ? "__Secure-" : ""}authjs.session-token`;
}

/**
 * Checks email and password (rate limited); on success creates a database session and sets its cookie.
 * Each attempt is taken from the limits before the password is verified, so a burst of simultaneous
 * attempts checks no more passwords than the limit allows; a successful one is given back.
 */
export async function signInWithPassword(emailInput: string, password: string): Promise<PasswordSignInResult> {
  const { ip } = await requestInfo();
  const email = normalizeEmail(emailInput);
  const limits = [
    [perAccount(), `${ip}:${email}`],
    [perAddress(), ip],
  ] as const;
  const taken = await takeFromLimits(limits);
  if (!taken.ok) return { ok: false, error: `Too many sign-in attempts. Try again in ${retryMinutes(taken.retryAfterMs)} minute(s).` };
  const account = await dashboard().accounts.withPassword(email, password);
  if (!account) {
    await recordFailedSignIn(email);
    return { ok: false, error: "Wrong email or password." };
  }
  // Only failures count: this attempt is given back to both limits (earlier failures stay counted).
  await giveBack(limits);
  await startSession(account.id, "password");
  return { ok: true };
}

/** A new database session for the account, through Auth.js's adapter, and the cookie that carries it. */
export async function startSession(accountId: string, method: SignInMethod): Promise<void> {
  const { userAgent, secure } = await requestInfo();
  const context = dashboard();
  const token = randomBytes(32).toString("hex");
  const expires = new Date(context.clock.now() + SESSION_MAX_AGE_SECONDS * 1000);
  // The adapter passes extra fields through to the session row: the device shown in the sessions list.
  const session = { sessionToken: token, userId: accountId, expires, userAgent, [SIGN_IN_METHOD]: method };
  await sharecountAdapter(context).createSession!(session);
  (await cookies()).set(sessionCookieName(secure), token, {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    expires,
  });
}
