import { randomUUID } from "node:crypto";
import { endSessions } from "../sessions/sessions.ts";
import { VOIDED_BY_PASSWORD, voidLinks } from "./account-tokens.ts";
import { hashPassword, passwordMatches } from "./password-hash.ts";
import type { PrismaClient } from "../db/prisma.ts";
import type { QuotaClock } from "../quota/clock.ts";
import type { Store } from "../store/store.ts";
import { normalizeWhitelistEntry } from "../whitelist/domains.ts";
import { ApiKeys } from "../keys/api-keys.ts";
import { Members } from "../members/members.ts";
import { replaceWhitelist } from "../whitelist/replace-whitelist.ts";
import type { AuditSource } from "../audit/actor.ts";
import { recordAudit } from "../audit/record.ts";
import { emailAddress, normalizeEmail } from "./email-address.ts";
import { SharecountError } from "../errors.ts";
import { isUniqueViolation } from "../db/unique-violation.ts";

/** An error the caller made (unknown account, bad plan, bad domain): shown to the operator or user as is. */
export class AccountError extends SharecountError<"invalid_input"> {
  static override readonly kind: string = "AccountError";

  constructor(message: string) {
    super("invalid_input", message);
  }
}

/** The transaction that creates an account, for rows written with it (a link, a mail, an audit event). */
export type AccountWriter = Pick<PrismaClient, "account" | "accountToken" | "mailMessage" | "auditEvent">;
/** Who sets a password, and how: what its audit event says. */
export interface PasswordChange {
  audit: AuditSource;
  via: "settings" | "reset_link" | "admin";
  keepSessionId?: string;
  within?: (tx: AccountWriter) => Promise<unknown>;
}
export type WithinAccountWrite = (tx: AccountWriter, account: { id: string; email: string }) => Promise<unknown>;

/** Account management shared by the admin command line and the dashboard. */
export class Accounts {
  constructor(
    private readonly prisma: PrismaClient,
    /** Whose "today" a new account's or plan's allocation starts on. */
    private readonly clock: QuotaClock,
    /** The owners of usage (what `show` reports) and of bulk jobs (a raised plan lets paused jobs resume). */
    private readonly storage: Pick<Store, "usage" | "bulk">,
  ) {}

  private today(): string {
    return this.clock.today().day;
  }

  private async plan(name: string) {
    const plan = await this.findPlan(name);
    if (!plan) {
      const names = (await this.prisma.plan.findMany({ select: { name: true } })).map((p) => p.name);
      throw new AccountError(`Unknown plan "${name}"; plans: ${names.join(", ")}`);
    }
    return plan;
  }

  private async byEmail(email: string) {
    const account = await this.prisma.account.findUnique({ where: { email: normalizeEmail(email) } });
    if (!account) throw new AccountError(`No account with email ${email}`);
    return account;
  }

  /** The id of the account with this email, or null. */
  async idOf(email: string): Promise<string | null> {
    return (await this.prisma.account.findUnique({ where: { email: normalizeEmail(email) }, select: { id: true } }))?.id ?? null;
  }

  /** Creates the account with its key "Default" (every scope), returned only now; `within` runs in its transaction (the link to confirm the address). */
  async create(input: { email: string; plan: string; password?: string }, within?: WithinAccountWrite) {
    const parsed = emailAddress.safeParse(input.email);
    if (!parsed.success) throw new AccountError(`Not an email address: ${JSON.stringify(input.email)}`);
    const email = parsed.data;
    const plan = await this.plan(input.plan);
    const taken = () => new AccountError(`An account with email ${email} already exists`);
    if (await this.prisma.account.findUnique({ where: { email } })) throw taken();
    const passwordHash = input.password ? await hashPassword(input.password) : null;
    try {
      const { account, apiKey } = await this.prisma.$transaction(async (tx) => {
        const created = await tx.account.create({
          data: { id: randomUUID(), email, planName: plan.name, passwordHash, allocations: { create: { day: this.today(), dailyQuota: plan.dailyQuota } } },
        });
        const key = await ApiKeys.issueDefault(tx, created.id, this.clock.now());
        await Members.add(tx, created.id, created.id, "owner", this.clock.now());
        await within?.(tx, created);
        return { account: created, apiKey: key };
      });
      return { account, apiKey };
    } catch (error) {
      // Created meanwhile by a concurrent request: the unique index decides, the answer is the ordinary one.
      if (isUniqueViolation(error)) throw taken();
      throw error;
    }
  }

  /** Changes the plan (recorded in the audit log with it); today's allocation follows it, earlier days keep theirs; paused jobs may resume. */
  async setPlan(email: string, planName: string, audit: AuditSource) {
    const account = await this.byEmail(email);
    const plan = await this.plan(planName);
    const day = this.today();
    await this.prisma.$transaction(async (tx) => {
      const { planName: from } = await tx.account.findUniqueOrThrow({ where: { id: account.id }, select: { planName: true } });
      await tx.account.update({ where: { id: account.id }, data: { planName: plan.name } });
      await tx.quotaAllocation.upsert({
        where: { accountId_day: { accountId: account.id, day } },
        create: { accountId: account.id, day, dailyQuota: plan.dailyQuota },
        update: { dailyQuota: plan.dailyQuota },
      });
      if (from !== plan.name) await recordAudit(tx, { accountId: account.id, ...audit, action: "plan.changed", changes: { from, to: plan.name } });
    });
    await this.storage.bulk.resume({ accountId: account.id });
    return this.show(email);
  }

  /** Imports an account's past (the demo account's): when it was created, and allocations it had (kept where present). */
  async importHistory(accountId: string, createdAt: Date, allocations: { day: string; dailyQuota: number }[]) {
    await this.prisma.$transaction([
      this.prisma.account.update({ where: { id: accountId }, data: { createdAt } }),
      ...allocations.map(({ day, dailyQuota }) =>
        this.prisma.quotaAllocation.upsert({ where: { accountId_day: { accountId, day } }, create: { accountId, day, dailyQuota }, update: {} }),
      ),
    ]);
  }

  /** One plan's limits, or null when there is no such plan. */
  async findPlan(name: string) {
    return this.prisma.plan.findUnique({ where: { name } });
  }

  /** Every plan, smallest quota first. */
  async plans() {
    return this.prisma.plan.findMany({ orderBy: { dailyQuota: "asc" } });
  }

  /**
   * Changes a plan's limits; accounts on it get the new daily quota from today on (earlier days keep
   * theirs), and their jobs paused for quota resume now instead of at the next reset.
   */
  async updatePlan(name: string, changes: { dailyQuota?: number; bulkBatchLimit?: number; customTtlAllowed?: boolean; trackedUrlLimit?: number }) {
    const day = this.today();
    const plan = await this.prisma.$transaction(async (tx) => {
      // Only a missing plan is "unknown": any other failure (a value the database refuses) must not be reported as one.
      if (!(await tx.plan.findUnique({ where: { name } }))) throw new AccountError(`Unknown plan "${name}"`);
      const updated = await tx.plan.update({ where: { name }, data: changes });
      if (changes.dailyQuota !== undefined) {
        const accounts = await tx.account.findMany({ where: { planName: name }, select: { id: true } });
        for (const { id } of accounts) {
          await tx.quotaAllocation.upsert({
            where: { accountId_day: { accountId: id, day } },
            create: { accountId: id, day, dailyQuota: updated.dailyQuota },
            update: { dailyQuota: updated.dailyQuota },
          });
        }
      }
      return updated;
    });
    if (changes.dailyQuota !== undefined) await this.storage.bulk.resume({ planName: name });
    return plan;
  }

  /** What the bulk page shows of the account: its plan's batch limit, its whitelist, and the plans that allow bulk jobs. */
  async bulkSettingsOf(accountId: string) {
    const [account, bulkPlans] = await Promise.all([
      this.prisma.account.findUniqueOrThrow({
        where: { id: accountId },
        select: { whitelistEnabled: true, whitelist: { select: { domain: true } }, plan: { select: { name: true, bulkBatchLimit: true } } },
      }),
      this.prisma.plan.findMany({ where: { bulkBatchLimit: { gt: 0 } }, orderBy: { bulkBatchLimit: "asc" }, select: { name: true, bulkBatchLimit: true } }),
    ]);
    return {
      plan: account.plan,
      bulkPlans,
      whitelist: { enabled: account.whitelistEnabled, domains: account.whitelist.map((entry) => entry.domain) },
    };
  }

  /** The limits of the account's plan. */
  async planOf(accountId: string) {
    const { plan } = await this.prisma.account.findUniqueOrThrow({ where: { id: accountId }, select: { plan: true } });
    return plan;
  }

  /** Whether the account has a password (an account made by a GitHub or Google sign-in has none at first). */
  async hasPassword(accountId: string): Promise<boolean> {
    return (await this.passwordHashOf(accountId)) !== null;
  }

  /** Whether `password` is the account's password. */
  async checkPassword(accountId: string, password: string): Promise<boolean> {
    return passwordMatches(await this.passwordHashOf(accountId), password);
  }

  /** The account with this email and password, or null; an unknown email takes as long to answer as a wrong password. */
  async withPassword(email: string, password: string): Promise<{ id: string } | null> {
    const account = await this.prisma.account.findUnique({
      where: { email: normalizeEmail(email) },
      select: { id: true, passwordHash: true },
    });
    const valid = await passwordMatches(account?.passwordHash ?? null, password);
    return valid && account ? { id: account.id } : null;
  }

  /**
   * Sets the password (null removes it) and, in the same transaction, ends the account's sessions but
   * `keepSessionId`'s (a browser signed in with the old password is signed out with it) and records it in the
   * audit log. `within` (the "password changed" notice) commits with the change or not at all. Returns how many ended.
   */
  async setPassword(accountId: string, password: string | null, change: PasswordChange): Promise<number> {
    const passwordHash = password === null ? null : await hashPassword(password);
    return this.prisma.$transaction(async (tx) => {
      await tx.account.update({ where: { id: accountId }, data: { passwordHash } });
      await voidLinks(tx, accountId, VOIDED_BY_PASSWORD);
      const ended = await endSessions(tx, accountId, change.keepSessionId);
      await change.within?.(tx);
      const changes = { via: password === null ? "removed" : change.via, other_sessions_ended: ended.count } as const;
      await recordAudit(tx, { accountId, ...change.audit, action: "password.changed", changes });
      return ended.count;
    });
  }

  private async passwordHashOf(accountId: string): Promise<string | null> {
    const { passwordHash } = await this.prisma.account.findUniqueOrThrow({ where: { id: accountId }, select: { passwordHash: true } });
    return passwordHash;
  }

  /** Replaces the whitelist, recorded in the audit log with it; every entry is normalized, and an invalid one refuses the whole change. */
  async setWhitelist(email: string, entries: string[], enabled: boolean, audit: AuditSource) {
    const account = await this.byEmail(email);
    const domains = new Set<string>();
    for (const entry of entries) {
      const result = normalizeWhitelistEntry(entry);
      if (!result.ok) throw new AccountError(result.reason);
      domains.add(result.domain);
    }
    await this.prisma.$transaction((tx) => replaceWhitelist(tx, account.id, domains, enabled, audit));
    return this.show(email);
  }

  async show(email: string) {
    const account = await this.prisma.account.findUnique({
      where: { email: normalizeEmail(email) },
      include: { plan: true, whitelist: { orderBy: { domain: "asc" } } },
    });
    if (!account) throw new AccountError(`No account with email ${email}`);
    const usedToday = await this.storage.usage.queriesOn(account.id, this.today());
    return {
      email: account.email,
      plan: account.plan.name,
      quota: {
        allocated_today: account.plan.dailyQuota,
        used_today: usedToday,
        bulk_batch_limit: account.plan.bulkBatchLimit,
        custom_ttl_allowed: account.plan.customTtlAllowed,
      },
      whitelist: { enabled: account.whitelistEnabled, domains: account.whitelist.map((w) => w.domain) },
      has_password: account.passwordHash !== null,
      email_verified: account.emailVerified !== null,
      created_at: account.createdAt.toISOString(),
    };
  }
}

