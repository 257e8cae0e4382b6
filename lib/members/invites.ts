import { randomBytes, randomUUID } from "node:crypto";
import type { PrismaClient } from "../db/prisma.ts";
import { hashToken } from "../accounts/account-tokens.ts";
import { emailAddress } from "../accounts/email-address.ts";
import type { AuditSource } from "../audit/actor.ts";
import { recordAudit } from "../audit/record.ts";
import type { Outbox } from "../mail/outbox.ts";
import { memberErrors } from "./member-errors.ts";
import { lockAccount, Members, type MemberActor } from "./members.ts";
import { allows, MAX_MEMBERS, ROLE_LABELS, roleSchema, type Need, type Role } from "./roles.ts";

export const INVITE_DAYS = 7;
const INVITE_MS = INVITE_DAYS * 24 * 3_600_000;

type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
export type InviteState = "open" | "expired" | "used" | "revoked";

export interface Invite {
  id: string;
  email: string;
  role: Role;
  state: InviteState;
  invitedBy: string | null;
  createdAt: string;
  expiresAt: string;
}

/** What the invite link's page shows before anyone joins. */
export interface InvitePreview {
  account: string;
  invitedBy: string | null;
  email: string;
  role: Role;
  state: InviteState;
}

interface InviteRow {
  id: string;
  email: string;
  role: string;
  invitedBy: string;
  createdAt: Date;
  expiresAt: Date;
  acceptedAt: Date | null;
  revokedAt: Date | null;
}

const stateOf = (row: InviteRow, now: number): InviteState =>
  row.acceptedAt ? "used" : row.revokedAt ? "revoked" : row.expiresAt.getTime() <= now ? "expired" : "open";

const inviteOf = (row: InviteRow, now: number): Omit<Invite, "invitedBy"> => ({
  id: row.id,
  email: row.email,
  role: roleSchema.parse(row.role),
  state: stateOf(row, now),
  createdAt: row.createdAt.toISOString(),
  expiresAt: row.expiresAt.toISOString(),
});

/**
 * Takes one invite mail to `email` (normalized) from the caller's rate limits, or throws to refuse it. Called
 * inside the invite's transaction once everything else has passed (input, role, members, room), just before the
 * invite is written, so a refused invite costs nothing; answers how to give the mail back should the write fail.
 */
export type TakeInviteMail = (email: string) => Promise<(() => Promise<void>) | void>;

const openAt = (now: number) => ({ acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date(now) } });

/** Invitations by email (`account_invite`): a single-use link whose token only the mail holds, valid 7 days. */
export class Invites {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly outbox: Outbox,
    /** The dashboard's public address (links never use a request's Host header). */
    private readonly origin: string,
  ) {}

  /**
   * Invites an address; an open invite to it is replaced. Mail and audit event are written with it. `take`, when
   * given, is asked for the mail only for an invite that passed every check (see TakeInviteMail).
   */
  async create(accountId: string, actor: MemberActor, input: { email: string; role: Role }, take?: TakeInviteMail): Promise<Invite> {
    if (!roleSchema.safeParse(input.role).success) throw memberErrors.invalid(`Not a role: ${String(input.role).slice(0, 40)}`);
    const parsed = emailAddress.safeParse(input.email);
    if (!parsed.success) throw memberErrors.invalid(`Not an email address: ${input.email.slice(0, 320)}`);
    const email = parsed.data;
    const now = actor.source.at;
    return this.withTaken(take, (taking) =>
      this.prisma.$transaction(async (tx) => {
        await this.authorize(tx, accountId, actor, input.role);
        if (await tx.accountMember.findFirst({ where: { accountId, user: { email } } })) throw memberErrors.alreadyMember();
        await tx.accountInvite.updateMany({ where: { accountId, email, ...openAt(now) }, data: { revokedAt: new Date(now) } });
        await this.roomFor(tx, accountId, now);
        await taking(email);
        const id = `inv_${randomUUID().replaceAll("-", "").slice(0, 24)}`;
        const row = await this.issue(tx, accountId, actor.userId, { id, email, role: input.role }, now);
        await recordAudit(tx, { accountId, ...actor.source, action: "member.invited", changes: { email, role: input.role } });
        return row;
      }),
    );
  }

  /** Open invites and those that lapsed in the last 7 days, newest first. */
  async list(accountId: string, now: number): Promise<Invite[]> {
    const rows = await this.prisma.accountInvite.findMany({
      where: { accountId, acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date(now - INVITE_MS) } },
      orderBy: { createdAt: "desc" },
    });
    return this.described(rows, now);
  }

  /** A new link (the old one stops working) and 7 more days, mailed again; `take` as for create. */
  async resend(accountId: string, actor: MemberActor, inviteId: string, take?: TakeInviteMail): Promise<Invite> {
    const now = actor.source.at;
    return this.withTaken(take, (taking) =>
      this.prisma.$transaction(async (tx) => {
        await lockAccount(tx, accountId);
        const invite = await this.pending(tx, accountId, inviteId);
        await this.authorize(tx, accountId, actor, roleSchema.parse(invite.role));
        if (await tx.accountMember.findFirst({ where: { accountId, user: { email: invite.email } } })) throw memberErrors.alreadyMember();
        await tx.accountInvite.update({ where: { id: invite.id }, data: { revokedAt: new Date(now) } });
        // An expired invite did not count towards the limit; renewed, it does again.
        await this.roomFor(tx, accountId, now);
        await taking(invite.email);
        return this.issue(tx, accountId, actor.userId, { id: `inv_${randomUUID().replaceAll("-", "").slice(0, 24)}`, email: invite.email, role: roleSchema.parse(invite.role) }, now);
      }),
    );
  }

  async revoke(accountId: string, actor: MemberActor, inviteId: string): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      await lockAccount(tx, accountId);
      const invite = await this.pending(tx, accountId, inviteId);
      await this.authorize(tx, accountId, actor, roleSchema.parse(invite.role));
      await tx.accountInvite.updateMany({ where: { id: invite.id, acceptedAt: null, revokedAt: null }, data: { revokedAt: new Date(actor.source.at) } });
    });
  }

  async preview(token: string, now: number): Promise<InvitePreview | null> {
    const row = await this.prisma.accountInvite.findUnique({ where: { tokenHash: hashToken(token) }, include: { account: { select: { email: true } } } });
    if (!row) return null;
    const inviter = await this.prisma.account.findUnique({ where: { id: row.invitedBy }, select: { email: true } });
    return { account: row.account.email, invitedBy: inviter?.email ?? null, email: row.email, role: roleSchema.parse(row.role), state: stateOf(row, now) };
  }

  /** Joins the signed-in user to the invite's account (the link is the proof); answers the account's id. */
  async accept(token: string, user: { id: string; email: string }, source: AuditSource): Promise<string> {
    const now = source.at;
    return this.prisma.$transaction(async (tx) => {
      const row = await tx.accountInvite.findUnique({ where: { tokenHash: hashToken(token) } });
      if (!row) throw memberErrors.notFound("invite");
      await lockAccount(tx, row.accountId);
      const state = stateOf(row, now);
      if (state !== "open") throw memberErrors.closed(state);
      // Single use even when two tabs accept at once: only one update finds it open.
      const taken = await tx.accountInvite.updateMany({ where: { id: row.id, acceptedAt: null, revokedAt: null }, data: { acceptedAt: new Date(now), acceptedBy: user.id } });
      if (taken.count !== 1) throw memberErrors.closed("used");
      if (await tx.accountMember.findUnique({ where: { accountId_userId: { accountId: row.accountId, userId: user.id } } })) throw memberErrors.alreadyMember();
      if ((await tx.accountMember.count({ where: { accountId: row.accountId } })) >= MAX_MEMBERS) throw memberErrors.tooMany(MAX_MEMBERS);
      const role = roleSchema.parse(row.role);
      await Members.add(tx, row.accountId, user.id, role, now);
      await recordAudit(tx, { accountId: row.accountId, ...source, action: "member.joined", changes: { user_id: user.id, email: user.email, role } });
      return row.accountId;
    });
  }

  /** Runs `work` with a `taking` that asks `take` for the mail; a mail taken for work that then failed is given back. */
  private async withTaken<T>(take: TakeInviteMail | undefined, work: (taking: (email: string) => Promise<void>) => Promise<T>): Promise<T> {
    const taken: { giveBack?: () => Promise<void> } = {};
    try {
      return await work(async (email) => {
        taken.giveBack = (await take?.(email)) ?? undefined;
      });
    } catch (error) {
      await taken.giveBack?.();
      throw error;
    }
  }

  /** Inviting needs the members role; inviting an owner needs to be one. Read inside the change. */
  private async authorize(tx: Tx, accountId: string, actor: MemberActor, role: Role): Promise<void> {
    await lockAccount(tx, accountId);
    const row = await tx.accountMember.findUnique({ where: { accountId_userId: { accountId, userId: actor.userId } }, select: { role: true } });
    const need: Need = role === "owner" ? "ownership" : "members";
    if (!row || !allows(roleSchema.parse(row.role), need)) throw memberErrors.forbidden();
  }

  /** Refuses another open invite when members and open invites already fill the account. */
  private async roomFor(tx: Tx, accountId: string, now: number): Promise<void> {
    const [members, invites] = await Promise.all([tx.accountMember.count({ where: { accountId } }), tx.accountInvite.count({ where: { accountId, ...openAt(now) } })]);
    if (members + invites >= MAX_MEMBERS) throw memberErrors.tooMany(MAX_MEMBERS);
  }

  private async pending(tx: Tx, accountId: string, inviteId: string) {
    const invite = await tx.accountInvite.findFirst({ where: { id: inviteId, accountId, acceptedAt: null, revokedAt: null } });
    if (!invite) throw memberErrors.notFound("invite");
    return invite;
  }

  private async issue(tx: Tx, accountId: string, invitedBy: string, invite: { id: string; email: string; role: Role }, now: number): Promise<Invite> {
    const token = randomBytes(32).toString("base64url");
    const row = await tx.accountInvite.create({
      data: { ...invite, accountId, tokenHash: hashToken(token), invitedBy, createdAt: new Date(now), expiresAt: new Date(now + INVITE_MS) },
    });
    const [account, inviter] = await Promise.all([
      tx.account.findUniqueOrThrow({ where: { id: accountId }, select: { email: true } }),
      tx.account.findUnique({ where: { id: invitedBy }, select: { email: true } }),
    ]);
    const data = { link: `${this.origin}/dashboard/invite/${token}`, account: account.email, inviter: inviter?.email ?? account.email, role: ROLE_LABELS[invite.role], days: INVITE_DAYS };
    await this.outbox.queue(tx, { kind: "team_invite", to: invite.email, accountId, data }, now);
    return { ...inviteOf(row, now), invitedBy: inviter?.email ?? null };
  }

  private async described(rows: InviteRow[], now: number): Promise<Invite[]> {
    const inviters = await this.prisma.account.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.invitedBy))] } }, select: { id: true, email: true } });
    const emailOf = new Map(inviters.map((a) => [a.id, a.email]));
    return rows.map((row) => ({ ...inviteOf(row, now), invitedBy: emailOf.get(row.invitedBy) ?? null }));
  }
}
