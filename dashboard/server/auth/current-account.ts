import "server-only";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { dashboard } from "../context.ts";
import { hashSessionToken } from "./adapter.ts";
import { REQUEST_PATH_HEADER, safeNextPath, SIGNED_IN_HOME } from "./next-path.ts";
import { auth } from "./auth.ts";
import { sessionCookieName } from "./password.ts";
import type { Role } from "../../../lib/members/roles.ts";

/**
 * The account the signed-in user works in (`id`, `email`, `plan`: the active account's), their `role` in it, and
 * the user themself (their own sign-in: sessions, password, address). Account data goes by `id`; personal
 * settings by `user.id`.
 */
export interface CurrentAccount {
  id: string;
  email: string;
  plan: string;
  role: Role;
  user: { id: string; email: string };
  /** The session row of this browser (its id, for "this device" in the sessions list). */
  sessionId: string;
}

/**
 * The signed-in account, or null. Reads the database session on every request, so a revoked session is
 * signed out at once; records when the session was last seen (at most once a minute).
 */
export const currentAccount = cache(async (): Promise<CurrentAccount | null> => {
  // Auth.js checks the session (and drops or extends it); the account comes from the session row.
  if (!(await auth())) return null;
  const jar = await cookies();
  const token = jar.get(sessionCookieName(true))?.value ?? jar.get(sessionCookieName(false))?.value;
  if (!token) return null;
  const session = await dashboard().sessions.signedIn(
    hashSessionToken(token),
    async () => (await headers()).get("user-agent")?.slice(0, 300) ?? null,
  );
  return session && { id: session.accountId, email: session.email, plan: session.plan, role: session.role, user: session.user, sessionId: session.id };
});

/** The signed-in account; a signed-out browser is sent to sign in, and back to this page after. */
export async function requireAccount(): Promise<CurrentAccount> {
  const account = await currentAccount();
  if (account) return account;
  const path = safeNextPath((await headers()).get(REQUEST_PATH_HEADER));
  redirect(path === SIGNED_IN_HOME ? "/sign-in" : `/sign-in?next=${encodeURIComponent(path)}`);
}
