import "server-only";
import { dashboard } from "./context.ts";
import { describeDevice } from "./user-agent.ts";

export interface SessionSummary {
  id: string;
  /** e.g. "Chrome on Linux". */
  device: string;
  lastSeenAt: string;
  createdAt: string;
  /** The browser asking. */
  current: boolean;
}

/** The account's signed-in browsers that have not expired: this one first, then the most recently seen. */
export async function listSessions(accountId: string, currentSessionId: string): Promise<SessionSummary[]> {
  const rows = await dashboard().prisma.session.findMany({
    where: { userId: accountId, expires: { gt: new Date() } },
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
