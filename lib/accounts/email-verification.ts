import type { PrismaClient } from "../db/prisma.ts";
import type { Outbox } from "../mail/outbox.ts";
import { AccountTokens, type TakenToken } from "./account-tokens.ts";
import type { AccountWriter } from "./accounts.ts";

/** How long a mailed link that confirms an address works (a new account's, or a new address's). */
export const EMAIL_LINK_HOURS = 24;
export const EMAIL_LINK_TTL_MS = EMAIL_LINK_HOURS * 3600_000;

/** `replaced`: the account moved to another address since the link was sent, so it confirms nothing. */
export type VerifyOutcome = { ok: true; email: string } | { ok: false; reason: Extract<TakenToken, { ok: false }>["reason"] | "replaced" };

/**
 * Confirming that an account's address reaches its owner: a link mailed at sign-up (or again on request),
 * which sets `email_verified`. An unconfirmed account works as any other; only mail the user did not ask
 * for (alerts) waits for a confirmed address.
 */
export class EmailVerification {
  private readonly tokens: AccountTokens;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly outbox: Outbox,
    /** The dashboard's public address, which the link opens. */
    private readonly origin: string,
  ) {
    this.tokens = new AccountTokens(prisma);
  }

  /** A link for the account's address and the mail that carries it, in the caller's transaction (the sign-up's). */
  async send(tx: AccountWriter, account: { id: string; email: string }, now: number): Promise<void> {
    const token = await this.tokens.issue(tx, { accountId: account.id, purpose: "verify_email", email: account.email }, now, EMAIL_LINK_TTL_MS);
    const data = { link: `${this.origin}/verify-email?token=${token}`, hours: EMAIL_LINK_HOURS };
    await this.outbox.queue(tx, { kind: "verify_email", to: account.email, accountId: account.id, data }, now);
  }

  /** A new link (the older one stops working), unless the address is confirmed already. */
  async resend(accountId: string, now: number): Promise<"sent" | "verified"> {
    return this.prisma.$transaction(async (tx) => {
      const account = await tx.account.findUniqueOrThrow({ where: { id: accountId }, select: { id: true, email: true, emailVerified: true } });
      if (account.emailVerified) return "verified";
      await this.send(tx, account, now);
      return "sent";
    });
  }

  /** Uses the link up and marks the address confirmed, if it is still the account's. */
  async confirm(token: string, now: number): Promise<VerifyOutcome> {
    return this.prisma.$transaction(async (tx): Promise<VerifyOutcome> => {
      const taken = await this.tokens.take(tx, token, "verify_email", now);
      if (!taken.ok) return taken;
      const email = taken.email ?? "";
      const { count } = await tx.account.updateMany({ where: { id: taken.accountId, email }, data: { emailVerified: new Date(now) } });
      return count === 1 ? { ok: true, email } : { ok: false, reason: "replaced" };
    });
  }

  /** The account's address once confirmed, else null: where mail the user did not ask for (alerts) may go. */
  async verifiedAddressOf(accountId: string): Promise<string | null> {
    const account = await this.prisma.account.findUnique({ where: { id: accountId }, select: { email: true, emailVerified: true } });
    return account?.emailVerified ? account.email : null;
  }
}
