import { createHash, randomBytes } from "node:crypto";
import type { PrismaClient } from "../db/prisma.ts";

/** What a mailed link does: reset the password, confirm the account's address, or move to a new one. */
export type TokenPurpose = "password_reset" | "verify_email" | "change_email";

/** The client or an open transaction's: a token is written with the mail that carries it. */
export type TokenWriter = Pick<PrismaClient, "accountToken">;

export type TakenToken = { ok: true; accountId: string; email: string | null } | { ok: false; reason: "unknown" | "used" | "expired" };

/** 32 random bytes in the link; only their SHA-256 is stored, so a read database yields no usable link. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/**
 * Voids the account's links of these purposes, in the caller's transaction. A password set by any path voids
 * the pending reset and address-change links (whoever asked for them may be who the owner just locked out); an
 * address change voids the links mailed to the old address.
 */
export async function voidLinks(db: TokenWriter, accountId: string, purposes: readonly TokenPurpose[]): Promise<void> {
  // A used link stays, so that opening it again still says "used".
  await db.accountToken.deleteMany({ where: { accountId, purpose: { in: [...purposes] }, usedAt: null } });
}

/** What a new password voids (see voidLinks). */
export const VOIDED_BY_PASSWORD: readonly TokenPurpose[] = ["password_reset", "change_email"];

/** Tokens in mailed links (account_token): single use, expiring, a newer one voiding the older. */
export class AccountTokens {
  constructor(private readonly prisma: PrismaClient) {}

  /** A new token for the account and purpose; the older ones of that purpose stop working. Answers the token. */
  async issue(
    db: TokenWriter,
    grant: { accountId: string; purpose: TokenPurpose; email?: string | null },
    now: number,
    ttlMs: number,
  ): Promise<string> {
    const token = randomBytes(32).toString("base64url");
    await db.accountToken.deleteMany({ where: { accountId: grant.accountId, purpose: grant.purpose } });
    await db.accountToken.create({
      data: {
        tokenHash: hashToken(token),
        accountId: grant.accountId,
        purpose: grant.purpose,
        email: grant.email ?? null,
        createdAt: new Date(now),
        expiresAt: new Date(now + ttlMs),
      },
    });
    return token;
  }

  /** Whether the token would be taken now, without taking it (to show the page its link opens). */
  async check(token: string, purpose: TokenPurpose, now: number): Promise<TakenToken> {
    const row = await this.prisma.accountToken.findUnique({ where: { tokenHash: hashToken(token) } });
    if (!row || row.purpose !== purpose) return { ok: false, reason: "unknown" };
    if (row.usedAt) return { ok: false, reason: "used" };
    if (row.expiresAt.getTime() <= now) return { ok: false, reason: "expired" };
    return { ok: true, accountId: row.accountId, email: row.email };
  }

  /**
   * Uses the token up, in the caller's transaction: one conditional update, so of two requests with the same
   * link only one gets `ok`.
   */
  async take(db: TokenWriter, token: string, purpose: TokenPurpose, now: number): Promise<TakenToken> {
    const tokenHash = hashToken(token);
    const { count } = await db.accountToken.updateMany({
      where: { tokenHash, purpose, usedAt: null, expiresAt: { gt: new Date(now) } },
      data: { usedAt: new Date(now) },
    });
    if (count === 1) {
      const row = await db.accountToken.findUniqueOrThrow({ where: { tokenHash } });
      return { ok: true, accountId: row.accountId, email: row.email };
    }
    return this.check(token, purpose, now);
  }
}
