import { randomUUID } from "node:crypto";
import { hash as argon2Hash } from "@node-rs/argon2";
import type { PrismaClient } from "../db/prisma.ts";
import type { QuotaClock } from "../quota/clock.ts";
import { normalizeWhitelistEntry } from "../whitelist/domains.ts";
import type { KeyVault } from "../security/secrets.ts";
import { generateApiKey, hashApiKey } from "./api-key.ts";
import { emailAddress, normalizeEmail } from "./email-address.ts";

/** An error the caller made (unknown account, bad plan, bad domain): shown to the operator or user as is. */
export class AccountError extends Error {
  override readonly name = "AccountError";

  // Next.js bundles this module more than once in one process (the dashboard context is shared across
  // bundles): recognize every copy's errors by name, so `instanceof` holds whichever copy threw.
  static [Symbol.hasInstance](value: unknown): boolean {
    return value instanceof Error && value.name === "AccountError";
  }
}

/** Account management shared by the admin command line and the dashboard. */
export class Accounts {
  constructor(
    private readonly prisma: PrismaClient,
    /** Whose "today" a new account's or plan's allocation starts on. */
    private readonly clock: QuotaClock,
    private readonly vault: KeyVault,
  ) {}

  private today(): string {
    return this.clock.today().day;
  }

  private async plan(name: string) {
    const plan = await this.prisma.plan.findUnique({ where: { name } });
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

  /** Creates the account and returns its API key: the only time the key is shown in full. */
  async create(input: { email: string; plan: string; password?: string }) {
    const parsed = emailAddress.safeParse(input.email);
    if (!parsed.success) throw new AccountError(`Not an email address: ${JSON.stringify(input.email)}`);
    const email = parsed.data;
    const plan = await this.plan(input.plan);
    const taken = () => new AccountError(`An account with email ${email} already exists`);
    if (await this.prisma.account.findUnique({ where: { email } })) throw taken();
    const apiKey = generateApiKey();
    const passwordHash = input.password ? await hashPassword(input.password) : null;
    try {
      const account = await this.prisma.account.create({
        data: {
          id: randomUUID(),
          email,
          planName: plan.name,
          apiKeyHash: hashApiKey(apiKey),
          apiKeyEncrypted: this.vault.encrypt(apiKey),
          passwordHash,
          allocations: { create: { day: this.today(), dailyQuota: plan.dailyQuota } },
        },
      });
      return { account, apiKey };
    } catch (error) {
      // Created meanwhile by a concurrent request: the unique index decides, the answer is the ordinary one.
      if (isUniqueViolation(error)) throw taken();
      throw error;
    }
  }

  /** Changes the plan; today's allocation follows it, earlier days keep theirs; paused jobs may resume. */
  async setPlan(email: string, planName: string) {
    const account = await this.byEmail(email);
    const plan = await this.plan(planName);
    const day = this.today();
    await this.prisma.$transaction([
      this.prisma.account.update({ where: { id: account.id }, data: { planName: plan.name } }),
      this.prisma.quotaAllocation.upsert({
        where: { accountId_day: { accountId: account.id, day } },
        create: { accountId: account.id, day, dailyQuota: plan.dailyQuota },
        update: { dailyQuota: plan.dailyQuota },
      }),
      this.prisma.bulkJob.updateMany({
        where: { accountId: account.id, completedAt: null },
        data: { pausedUntil: null },
      }),
    ]);
    return this.show(email);
  }

  /** Replaces the key; the old one stops working with the next request (keys are looked up per request). */
  async rollKey(email: string) {
    const account = await this.byEmail(email);
    return { email: account.email, apikey: await this.rollKeyOf(account.id) };
  }

  async rollKeyOf(accountId: string): Promise<string> {
    const apiKey = generateApiKey();
    await this.prisma.account.update({
      where: { id: accountId },
      data: { apiKeyHash: hashApiKey(apiKey), apiKeyEncrypted: this.vault.encrypt(apiKey) },
    });
    return apiKey;
  }

  /** The account's API key, for the dashboard's calls to the API and for "reveal"; null if it has no stored copy. */
  async apiKeyOf(accountId: string): Promise<string | null> {
    const account = await this.prisma.account.findUnique({ where: { id: accountId }, select: { apiKeyEncrypted: true } });
    return account?.apiKeyEncrypted ? this.vault.decrypt(account.apiKeyEncrypted) : null;
  }

  /** Replaces the whitelist; every entry is normalized, and an invalid one refuses the whole change. */
  async setWhitelist(email: string, entries: string[], enabled: boolean) {
    const account = await this.byEmail(email);
    const domains = new Set<string>();
    for (const entry of entries) {
      const result = normalizeWhitelistEntry(entry);
      if (!result.ok) throw new AccountError(result.reason);
      domains.add(result.domain);
    }
    await this.prisma.$transaction([
      this.prisma.whitelistDomain.deleteMany({ where: { accountId: account.id } }),
      this.prisma.whitelistDomain.createMany({ data: [...domains].map((domain) => ({ accountId: account.id, domain })) }),
      this.prisma.account.update({ where: { id: account.id }, data: { whitelistEnabled: enabled } }),
    ]);
    return this.show(email);
  }

  async show(email: string) {
    const account = await this.prisma.account.findUnique({
      where: { email: normalizeEmail(email) },
      include: { plan: true, whitelist: { orderBy: { domain: "asc" } }, usage: { where: { day: this.today() } } },
    });
    if (!account) throw new AccountError(`No account with email ${email}`);
    return {
      email: account.email,
      plan: account.plan.name,
      quota: {
        allocated_today: account.plan.dailyQuota,
        used_today: account.usage[0]?.queries ?? 0,
        bulk_batch_limit: account.plan.bulkBatchLimit,
        custom_ttl_allowed: account.plan.customTtlAllowed,
      },
      whitelist: { enabled: account.whitelistEnabled, domains: account.whitelist.map((w) => w.domain) },
      has_password: account.passwordHash !== null,
      created_at: account.createdAt.toISOString(),
    };
  }
}

/** Prisma's unique-constraint error (P2002), on either database. */
function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}

/** argon2id with the library's defaults (OWASP's recommended minimum: 19 MiB, 2 passes). */
export function hashPassword(password: string): Promise<string> {
  return argon2Hash(password);
}
