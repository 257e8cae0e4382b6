import "server-only";
import { createHash } from "node:crypto";
import { PrismaAdapter } from "@auth/prisma-adapter";
import type { Adapter, AdapterUser } from "next-auth/adapters";
import type { DashboardContext } from "../context.ts";

/** Session tokens are stored as SHA-256: a leaked session table cannot be replayed as cookies. */
export function hashSessionToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * Auth.js's Prisma adapter over this project's models: a customer account is Auth.js's "user", a linked
 * sign-in provider its "account". A user created by a provider sign-in becomes a free account with a key.
 */
export function sharecountAdapter({ prisma, accounts }: DashboardContext): Adapter {
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
      const { account } = await accounts.create({ email: user.email, plan: "free" });
      const updated = await prisma.account.update({
        where: { id: account.id },
        data: { name: user.name ?? null, image: user.image ?? null, emailVerified: user.emailVerified ?? null },
      });
      return updated as unknown as AdapterUser;
    },
    async createSession(session) {
      const created = await base.createSession!({ ...session, sessionToken: hashSessionToken(session.sessionToken) });
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
