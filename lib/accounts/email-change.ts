import type { PrismaClient } from "../db/prisma.ts";
import { userActor, type AuditClient } from "../audit/actor.ts";
import { recordAudit } from "../audit/record.ts";
import { isUniqueViolation } from "../db/unique-violation.ts";
import type { Outbox } from "../mail/outbox.ts";
import { AccountTokens, voidLinks, type TakenToken } from "./account-tokens.ts";
import { EMAIL_LINK_HOURS, EMAIL_LINK_TTL_MS } from "./email-verification.ts";
import type { SecurityNotices } from "./security-notices.ts";

/**
 * The one refusal of an address that cannot be the account's, whatever the reason: it never says that
 * another account has it.
 */
export const ADDRESS_REFUSED = "This address cannot be used for your account. Check it, or choose another.";

export type ChangeRequest = { ok: true; email: string } | { ok: false; error: string };

/** `taken`: another account confirmed the same address first. */
export type ChangeOutcome = { ok: true; email: string } | { ok: false; reason: Extract<TakenToken, { ok: false }>["reason"] | "taken" };

/**
 * Moving an account to another address: a link to the new address confirms it, a notice tells the old one.
 * Until the link is opened the account keeps its address; when it is, the old address is told, and the new
 * one counts as confirmed (it just proved it receives mail).
 */
export class EmailChange {
  private readonly tokens: AccountTokens;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly outbox: Outbox,
    private readonly notices: SecurityNotices,
    /** The dashboard's public address, which the links open. */
    private readonly origin: string,
  ) {
    this.tokens = new AccountTokens(prisma);
  }

  /** Mails the new address (`newEmail`, already normalized) its link and the current one a notice; a newer request voids the older link. */
  async request(accountId: string, newEmail: string, now: number): Promise<ChangeRequest> {
    return this.prisma.$transaction(async (tx): Promise<ChangeRequest> => {
      const account = await tx.account.findUniqueOrThrow({ where: { id: accountId }, select: { email: true } });
      if (account.email === newEmail) return { ok: false, error: "That is your address already." };
      if (await tx.account.findUnique({ where: { email: newEmail }, select: { id: true } })) return { ok: false, error: ADDRESS_REFUSED };
      const token = await this.tokens.issue(tx, { accountId, purpose: "change_email", email: newEmail }, now, EMAIL_LINK_TTL_MS);
      const confirm = { link: `${this.origin}/change-email?token=${token}`, hours: EMAIL_LINK_HOURS };
      await this.outbox.queue(tx, { kind: "change_email", to: newEmail, accountId, data: confirm }, now);
      const notice = { newEmail, link: `${this.origin}/dashboard/settings` };
      await this.outbox.queue(tx, { kind: "email_change_requested", to: account.email, accountId, data: notice }, now);
      return { ok: true, email: newEmail };
    });
  }

  /** The address waiting for its link to be opened (while the link works); null when none is. */
  async pendingOf(accountId: string, now: number): Promise<string | null> {
    const token = await this.prisma.accountToken.findFirst({
      where: { accountId, purpose: "change_email", usedAt: null, expiresAt: { gt: new Date(now) } },
      select: { email: true },
    });
    return token?.email ?? null;
  }

  /** Uses the link up and moves the account to its address, unless another account has that address by now. */
  async confirm(token: string, now: number, client: AuditClient): Promise<ChangeOutcome> {
    try {
      return await this.prisma.$transaction(async (tx): Promise<ChangeOutcome> => {
        const taken = await this.tokens.take(tx, token, "change_email", now);
        if (!taken.ok) return taken;
        const { accountId } = taken;
        const email = taken.email ?? "";
        const before = await tx.account.findUniqueOrThrow({ where: { id: accountId }, select: { email: true } });
        // The unique index decides between two accounts confirming one address: the later one fails here.
        await tx.account.update({ where: { id: accountId }, data: { email, emailVerified: new Date(now) } });
        // Links mailed to the old address now do nothing: whoever holds that mailbox may be why it moved.
        await voidLinks(tx, accountId, ["verify_email", "password_reset"]);
        await this.notices.emailChanged(tx, { accountId, oldEmail: before.email, newEmail: email }, now);
        // Whoever opened the link mailed to the new address acts as the account's user.
        const actor = userActor({ id: accountId, email });
        await recordAudit(tx, { accountId, actor, client, at: now, action: "email.changed", changes: { from: before.email, to: email } });
        return { ok: true, email };
      });
    } catch (error) {
      // Rolled back whole: the link stays unused, and says the same if opened again.
      if (isUniqueViolation(error)) return { ok: false, reason: "taken" };
      throw error;
    }
  }
}
