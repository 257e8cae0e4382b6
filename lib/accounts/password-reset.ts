import type { PrismaClient } from "../db/prisma.ts";
import { userActor, type AuditClient } from "../audit/actor.ts";
import { recordAudit } from "../audit/record.ts";
import type { MailWriter } from "../mail/outbox-store.ts";
import type { Outbox } from "../mail/outbox.ts";
import { endSessions } from "../sessions/sessions.ts";
import { AccountTokens, VOIDED_BY_PASSWORD, voidLinks, type TokenWriter } from "./account-tokens.ts";
import { AccountError } from "./accounts.ts";
import { hashPassword } from "./password-hash.ts";
import { normalizeEmail } from "./email-address.ts";

export interface PasswordResetOptions {
  prisma: PrismaClient;
  outbox: Outbox;
  /** Where links in mail point (SHARECOUNT_PUBLIC_URL): never a request's Host header. */
  linkOrigin: string;
  /** How long a link works (PASSWORD_RESET_TTL_MINUTES). */
  ttlMinutes: number;
  /** The time zone notices give times in (QUOTA_TIMEZONE). */
  timeZone: string;
}

/** What a request queued: a link, the mail of an account that signs in only with GitHub or Google, or nothing. */
export type ResetRequested = "link" | "oauth" | "none";

/** A link's state: usable (for this account, whose address the page shows) or why not. */
export type ResetLink = { ok: true; accountId: string; email: string } | { ok: false; reason: "unknown" | "used" | "expired" };

const PROVIDER_NAMES: Record<string, string> = { github: "GitHub", google: "Google" };

/**
 * Forgot and reset password: mailed single-use links (lib/accounts/account-tokens.ts) and the notice that a
 * password changed, each written in one transaction with what caused it. `now` is always the caller's.
 */
export class PasswordReset {
  private readonly tokens: AccountTokens;

  constructor(private readonly options: PasswordResetOptions) {
    this.tokens = new AccountTokens(options.prisma);
  }

  /**
   * Queues the answer to "forgot password" for `email`: a link with a new token (older links stop working),
   * or, for an account without a password that signs in with GitHub or Google, a mail saying so. Token and
   * mail are one transaction, sent later by the mail worker; an unknown address writes nothing. Nothing slow
   * (argon2, a send) happens on one branch only; the few milliseconds of the writes are hidden by the caller's
   * answer time (dashboard/server/auth/password-reset.ts).
   */
  async request(email: string, now: number): Promise<ResetRequested> {
    const { prisma, outbox } = this.options;
    const account = await prisma.account.findUnique({
      where: { email: normalizeEmail(email) },
      select: { id: true, email: true, passwordHash: true, signInProviders: { select: { provider: true } } },
    });
    if (!account) return "none";
    const providers = account.passwordHash === null ? [...new Set(account.signInProviders.map((p) => PROVIDER_NAMES[p.provider] ?? p.provider))] : [];
    const mail = { to: account.email, accountId: account.id };
    return prisma.$transaction(async (tx) => {
      if (providers.length > 0) {
        await outbox.queue(tx, { ...mail, kind: "password_reset_oauth", data: { providers, link: this.url("/sign-in") } }, now);
        return "oauth";
      }
      // An account with neither (made by an operator without a password) gets a link: it sets a first one.
      const link = await this.issue(tx, account.id, now);
      await outbox.queue(tx, { ...mail, kind: "password_reset", data: { link, minutes: this.options.ttlMinutes } }, now);
      return "link";
    });
  }

  /** A new link for the account, not mailed: for an operator to hand over where no mail goes out. */
  async link(email: string, now: number): Promise<{ email: string; link: string; expiresAt: Date }> {
    const { prisma, ttlMinutes } = this.options;
    const account = await prisma.account.findUnique({ where: { email: normalizeEmail(email) }, select: { id: true, email: true } });
    if (!account) throw new AccountError(`No account with email ${email}`);
    const link = await prisma.$transaction((tx) => this.issue(tx, account.id, now));
    return { email: account.email, link, expiresAt: new Date(now + ttlMinutes * 60_000) };
  }

  /** Whether the link's token would reset a password now, and whose (the account's current address), without using it. */
  async check(token: string, now: number): Promise<ResetLink> {
    const checked = await this.tokens.check(token, "password_reset", now);
    if (!checked.ok) return checked;
    const account = await this.options.prisma.account.findUnique({ where: { id: checked.accountId }, select: { email: true } });
    return account ? { ok: true, accountId: checked.accountId, email: account.email } : { ok: false, reason: "unknown" };
  }

  /**
   * Sets the new password with a link's token: the token is used up, the password set, every session of the
   * account ended and the "password changed" notice queued, in one transaction, so of two uses of one link only
   * one sets a password. argon2 runs first, outside the transaction.
   */
  async complete(token: string, password: string, now: number, client: AuditClient): Promise<ResetLink> {
    const passwordHash = await hashPassword(password);
    return this.options.prisma.$transaction(async (tx): Promise<ResetLink> => {
      const taken = await this.tokens.take(tx, token, "password_reset", now);
      if (!taken.ok) return taken;
      const account = await tx.account.findUniqueOrThrow({ where: { id: taken.accountId }, select: { id: true, email: true } });
      await tx.account.update({ where: { id: account.id }, data: { passwordHash } });
      await voidLinks(tx, account.id, VOIDED_BY_PASSWORD);
      const ended = await endSessions(tx, account.id);
      await this.queueChangedNotice(tx, account, now);
      // Whoever opened the link mailed to the account's address acts as its user.
      const changes = { via: "reset_link", other_sessions_ended: ended.count } as const;
      await recordAudit(tx, { accountId: account.id, actor: userActor(account), client, at: now, action: "password.changed", changes });
      return { ok: true, accountId: account.id, email: account.email };
    });
  }

  /** "Your password was changed", in the caller's transaction: queued only if the change commits. */
  queueChangedNotice(tx: MailWriter, account: { id: string; email: string }, now: number): Promise<string> {
    const data = { when: noticeTime(now, this.options.timeZone), link: this.url("/forgot-password") };
    return this.options.outbox.queue(tx, { kind: "password_changed", to: account.email, accountId: account.id, data }, now);
  }

  /** A new token (voiding the account's older ones), as the link that carries it. */
  private async issue(tx: TokenWriter, accountId: string, now: number): Promise<string> {
    const token = await this.tokens.issue(tx, { accountId, purpose: "password_reset" }, now, this.options.ttlMinutes * 60_000);
    return this.url(`/reset-password?token=${token}`);
  }

  private url(path: string): string {
    return `${this.options.linkOrigin}${path}`;
  }
}

/** "on 1 March 2026 at 09:00 UTC": when, in the service's time zone, named. */
export function noticeTime(at: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    day: "numeric",
    month: "long",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZoneName: "short",
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  return `on ${part("day")} ${part("month")} ${part("year")} at ${part("hour")}:${part("minute")} ${part("timeZoneName")}`;
}
