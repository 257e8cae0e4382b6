import "server-only";
import { providerOfRequest, recordSignIn, type SignInMethod } from "./sign-in-audit.ts";
import { createHash } from "node:crypto";
import { PrismaAdapter } from "@auth/prisma-adapter";
import type { Adapter, AdapterUser } from "next-auth/adapters";
import { accountMail } from "../account-mail.ts";
import type { DashboardContext } from "../context.ts";
import { noteSignIn } from "./new-browser.ts";
import { log } from "../../../lib/log/log.ts";

/** The field a provider's profile sets (auth.ts) when the provider verified the address it gives. */
export const PROVIDER_VERIFIED = "providerVerifiedEmail";

/** The field startSession sets on a session it makes (password sign-in); a provider's callback sets none. */
export const SIGN_IN_METHOD = "signInMethod";

/** Session tokens are stored as SHA-256: a leaked session table cannot be replayed as cookies. */
export function hashSessionToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * Auth.js's Prisma adapter over this project's models: a customer account is Auth.js's "user", a linked
 * sign-in provider its "account". A user created by a provider sign-in becomes a free account with a key; its
 * address counts as confirmed when the provider says it verified it (see `PROVIDER_VERIFIED` in auth.ts), and
 * gets the confirmation link otherwise. Every new session is a sign-in, checked for a new browser.
 */
export function sharecountAdapter({ prisma, accounts, clock }: DashboardContext): Adapter {
  const base = PrismaAdapter({
    user: prisma.account,
    account: prisma.oAuthAccount,
    session: prisma.session,
    verificationToken: prisma.verificationToken,
  } as unknown as Parameters<typeof PrismaAdapter>[0]);
  const withToken = <T extends { sessionToken: string }>(session: T, token: string): T => ({ ...session, sessionToken: token });

  return {
    ...base,
    async createUser(user) {
      const now = clock.now();
      const vouched = (user as { [PROVIDER_VERIFIED]?: boolean })[PROVIDER_VERIFIED] === true;
      const { account } = await accounts.create({ email: user.email, plan: "free" }, async (tx, created) => {
        const profile = { name: user.name ?? null, image: user.image ?? null, emailVerified: vouched ? new Date(now) : null };
        await tx.account.update({ where: { id: created.id }, data: profile });
        if (!vouched) await accountMail().verification.send(tx, created, now);
      });
      return (await prisma.account.findUniqueOrThrow({ where: { id: account.id } })) as unknown as AdapterUser;
    },
    // The session and its sign-in's audit event are one transaction.
    async createSession(session) {
      const { [SIGN_IN_METHOD]: given, ...row } = session as typeof session & { [SIGN_IN_METHOD]?: SignInMethod };
      const method = given ?? (await providerOfRequest());
      // Only a password and the providers' callbacks make sessions; should another path appear, signing in must still work.
      if (!method) log.error({ event: "sign_in_method_unknown", account_id: row.userId });
      const created = await prisma.$transaction(async (tx) => {
        const made = await tx.session.create({ data: { ...row, sessionToken: hashSessionToken(row.sessionToken) } });
        if (method) await recordSignIn(tx, await tx.account.findUniqueOrThrow({ where: { id: made.userId }, select: { id: true, email: true } }), method);
        return made;
      });
      await noteSignIn(created.userId);
      return withToken(created, session.sessionToken);
    },
    async getSessionAndUser(token) {
      const found = await base.getSessionAndUser!(hashSessionToken(token));
      return found ? { ...found, session: withToken(found.session, token) } : null;
    },
    async updateSession(session) {
      const updated = await base.updateSession!({ ...session, sessionToken: hashSessionToken(session.sessionToken) });
      return updated ? withToken(updated, session.sessionToken) : updated;
    },
    async deleteSession(token) {
      await prisma.session.deleteMany({ where: { sessionToken: hashSessionToken(token) } });
    },
  };
}
