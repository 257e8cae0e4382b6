import type { PrismaClient } from "../db/prisma.ts";
import type { AuditSource } from "../audit/actor.ts";
import { recordAudit } from "../audit/record.ts";
import { memberErrors } from "./member-errors.ts";
import { allows, roleSchema, type Need, type Role } from "./roles.ts";

type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
export type MemberWriter = Pick<PrismaClient, "accountMember">;

export interface Member {
  userId: string;
  email: string;
  role: Role;
  joinedAt: string;
  /** The account's row is this member's own sign-in: they cannot leave it or be removed. */
  holder: boolean;
}

export interface Membership {
  accountId: string;
  /** The account's address (its holder's sign-in), which is how members tell accounts apart. */
  email: string;
  role: Role;
}

/** Who asks for a member change: the signed-in user, whose role is read again inside the change. */
export interface MemberActor {
  userId: string;
  source: AuditSource;
}

/** Serializes member and invite changes of one account (on SQLite the transaction already does). */
export const lockAccount = (tx: Tx, accountId: string) => tx.$executeRaw`UPDATE "account" SET "id" = "id" WHERE "id" = ${accountId}`;

/** Members of an account and their roles: the one owner of `account_member`. */
export class Members {
  constructor(private readonly prisma: PrismaClient) {}

  /** Adds a member in the caller's transaction (a new account's holder, an accepted invite). */
  static add(tx: MemberWriter, accountId: string, userId: string, role: Role, now: number) {
    return tx.accountMember.create({ data: { accountId, userId, role, createdAt: new Date(now) } });
  }

  async roleOf(accountId: string, userId: string): Promise<Role | null> {
    const row = await this.prisma.accountMember.findUnique({ where: { accountId_userId: { accountId, userId } }, select: { role: true } });
    return row ? roleSchema.parse(row.role) : null;
  }

  /** The accounts a user may work in: their own first, then by address. */
  async accountsOf(userId: string): Promise<Membership[]> {
    const rows = await this.prisma.accountMember.findMany({ where: { userId }, select: { accountId: true, role: true, account: { select: { email: true } } } });
    return rows
      .map((row) => ({ accountId: row.accountId, email: row.account.email, role: roleSchema.parse(row.role) }))
      .sort((a, b) => Number(b.accountId === userId) - Number(a.accountId === userId) || a.email.localeCompare(b.email));
  }

  async list(accountId: string): Promise<Member[]> {
    const rows = await this.prisma.accountMember.findMany({
      where: { accountId },
      orderBy: { createdAt: "asc" },
      select: { userId: true, role: true, createdAt: true, user: { select: { email: true } } },
    });
    return rows.map((row) => ({ userId: row.userId, email: row.user.email, role: roleSchema.parse(row.role), joinedAt: row.createdAt.toISOString(), holder: row.userId === accountId }));
  }

  /**
   * Gives a member another role. Admins manage members; only owners give or take the owner role. The holder is
   * never changed, so an account always has an owner (the last one cannot leave or be demoted).
   */
  async setRole(accountId: string, actor: MemberActor, userId: string, role: Role): Promise<Member[]> {
    await this.prisma.$transaction(async (tx) => {
      await lockAccount(tx, accountId);
      const actorRole = await this.requireRole(tx, accountId, actor.userId, "members");
      const target = await this.memberIn(tx, accountId, userId);
      if (target.role === role) return;
      // The holder stays owner of their own sign-in's account: nobody else can take it from them or lock them out of deleting it.
      if (userId === accountId) throw memberErrors.holder();
      if ((target.role === "owner" || role === "owner") && !allows(actorRole, "ownership")) throw memberErrors.forbidden("Only an owner can give or take the owner role.");
      await tx.accountMember.update({ where: { accountId_userId: { accountId, userId } }, data: { role } });
      await recordAudit(tx, { accountId, ...actor.source, action: "member.role_changed", changes: { user_id: userId, email: target.email, from: target.role, to: role } });
    });
    return this.list(accountId);
  }

  /** Removes a member, or (when the actor is that member) leaves. The holder stays, and with them an owner. */
  async remove(accountId: string, actor: MemberActor, userId: string): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      await lockAccount(tx, accountId);
      const leaving = userId === actor.userId;
      const actorRole = await this.requireRole(tx, accountId, actor.userId, leaving ? "read" : "members");
      const target = await this.memberIn(tx, accountId, userId);
      if (userId === accountId) throw memberErrors.holder();
      if (target.role === "owner" && !leaving && !allows(actorRole, "ownership")) throw memberErrors.forbidden("Only an owner can remove an owner.");
      await tx.accountMember.delete({ where: { accountId_userId: { accountId, userId } } });
      // Its browsers go back to the user's own account with their next page.
      await tx.session.updateMany({ where: { userId, activeAccountId: accountId }, data: { activeAccountId: null } });
      await recordAudit(tx, { accountId, ...actor.source, action: "member.removed", changes: { user_id: userId, email: target.email } });
    });
  }

  /** The actor's role, read inside the change; refused when it does not allow `need`. */
  private async requireRole(tx: Tx, accountId: string, userId: string, need: Need): Promise<Role> {
    const row = await tx.accountMember.findUnique({ where: { accountId_userId: { accountId, userId } }, select: { role: true } });
    const role = row ? roleSchema.parse(row.role) : null;
    if (!role || !allows(role, need)) throw memberErrors.forbidden();
    return role;
  }

  private async memberIn(tx: Tx, accountId: string, userId: string) {
    const row = await tx.accountMember.findUnique({ where: { accountId_userId: { accountId, userId } }, select: { role: true, user: { select: { email: true } } } });
    if (!row) throw memberErrors.notFound("member");
    return { role: roleSchema.parse(row.role), email: row.user.email };
  }
}
