import type { PrismaClient } from "../db/prisma.ts";
import type { QuotaClock } from "../quota/clock.ts";
import { describeDevice } from "./user-agent.ts";
import { roleSchema, type Role } from "../members/roles.ts";

// Not server-only: Accounts ends sessions when a password changes, and it runs in the admin command line too.

export interface SessionSummary {
  id: string;
  /** e.g. "Chrome on Linux". */
  device: string;
  lastSeenAt: string;
  createdAt: string;
  /** The browser asking. */
  current: boolean;
}

/** The signed-in browser's session: who signed in, and the account they work in (with their role there). */
export interface SignedInSession {
  id: string;
  user: { id: string; email: string };
  accountId: string;
  email: string;
  plan: string;
  role: Role;
}

// Recording every request would turn each page's reads into a write.
const LAST_SEEN_RESOLUTION_MS = 60_000;

/**
 * Ends the account's sessions, all or all but `keepSessionId`'s. Takes the client so it can join a batch
 * transaction with another write (a password change).
 */
export function endSessions(prisma: Pick<PrismaClient, "session">, accountId: string, keepSessionId?: string) {
  const where = keepSessionId === undefined ? { userId: accountId } : { userId: accountId, id: { not: keepSessionId } };
  return prisma.session.deleteMany({ where });
}

/** The dashboard's reads and writes of the session table (Auth.js's adapter keeps its own). */
export class Sessions {
  constructor(
    private readonly prisma: PrismaClient,
    /** What expiry and "last seen" are measured by. */
    private readonly clock: QuotaClock,
  ) {}

  /** The account's signed-in browsers that have not expired: this one first, then the most recently seen. */
  async list(accountId: string, currentSessionId: string): Promise<SessionSummary[]> {
    const rows = await this.prisma.session.findMany({
      where: { userId: accountId, expires: { gt: new Date(this.clock.now()) } },
      orderBy: { lastSeenAt: "desc" },
      select: { id: true, userAgent: true, lastSeenAt: true, createdAt: true },
    });
    return rows
      .map((row) => ({
        id: row.id,
        device: describeDevice(row.userAgent),
        lastSeenAt: row.lastSeenAt.toISOString(),
        createdAt: row.createdAt.toISOString(),
        current: row.id === currentSessionId,
      }))
      .sort((a, b) => Number(b.current) - Number(a.current));
  }

  /** "Sign out everywhere else": ends every session of the account but the current one; returns how many. */
  async endOthers(accountId: string, currentSessionId: string): Promise<number> {
    return (await endSessions(this.prisma, accountId, currentSessionId)).count;
  }

  /** Ends one session; scoped to the account, so another account's session id ends nothing. Returns how many ended. */
  async end(accountId: string, sessionId: string): Promise<number> {
    return (await this.prisma.session.deleteMany({ where: { id: sessionId, userId: accountId } })).count;
  }

  /**
   * The live session whose token hashes to `tokenHash`, with its account, or null. Records when it was last
   * seen (at most once a minute) and, if it has none yet, its browser (`userAgent` is asked only then).
   */
  async signedIn(tokenHash: string, userAgent: () => Promise<string | null>): Promise<SignedInSession | null> {
    const row = await this.prisma.session.findUnique({
      where: { sessionToken: tokenHash },
      include: {
        user: { select: { email: true, memberships: { select: { accountId: true, role: true, account: { select: { email: true, planName: true } } } } } },
      },
    });
    const now = this.clock.now();
    if (!row || row.expires.getTime() <= now) return null;
    if (now - row.lastSeenAt.getTime() > LAST_SEEN_RESOLUTION_MS || !row.userAgent) {
      await this.prisma.session.update({
        where: { id: row.id },
        data: { lastSeenAt: new Date(now), userAgent: row.userAgent ?? (await userAgent()) },
      });
    }
    // The account switched to while still a member of it, else the user's own, else the first they belong to.
    const { memberships } = row.user;
    const active =
      memberships.find((m) => m.accountId === row.activeAccountId) ?? memberships.find((m) => m.accountId === row.userId) ?? memberships[0];
    if (!active) return null;
    return {
      id: row.id,
      user: { id: row.userId, email: row.user.email },
      accountId: active.accountId,
      email: active.account.email,
      plan: active.account.planName,
      role: roleSchema.parse(active.role),
    };
  }

  /** Makes this browser work in another account the user belongs to; false when they do not. */
  async switchTo(sessionId: string, userId: string, accountId: string): Promise<boolean> {
    const member = await this.prisma.accountMember.findUnique({ where: { accountId_userId: { accountId, userId } }, select: { role: true } });
    if (!member) return false;
    await this.prisma.session.update({ where: { id: sessionId, userId }, data: { activeAccountId: accountId } });
    return true;
  }
}
