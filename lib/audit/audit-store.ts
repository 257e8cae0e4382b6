import type { PrismaClient } from "../db/prisma.ts";
import type { ActorType } from "./actor-types.ts";
import { auditChangeSchema, type AuditAction, type AuditChange } from "./catalogue.ts";
import type { AuditPosition } from "./audit-cursor.ts";

/** An event as the log answers it. */
export type AuditEvent = {
  id: string;
  at: number;
  actor: { type: ActorType; id: string | null; label: string | null };
  ip: string | null;
  userAgent: string | null;
} & AuditChange;

export interface AuditFilter {
  action?: AuditAction;
  actorType?: ActorType;
  /** Events at or after, in ms. */
  from?: number;
  /** Events before, in ms. */
  to?: number;
}

type Row = {
  id: string; time: Date; actorType: string; actorId: string | null; actorLabel: string | null;
  action: string; ip: string | null; userAgent: string | null; changes: string;
};

function toEvent(row: Row): AuditEvent {
  // Written through the catalogue; parsed again so a reader never gets a shape the catalogue does not know.
  const change = auditChangeSchema.parse({ action: row.action, changes: JSON.parse(row.changes) });
  return {
    id: row.id,
    at: row.time.getTime(),
    actor: { type: row.actorType as ActorType, id: row.actorId, label: row.actorLabel },
    ip: row.ip,
    userAgent: row.userAgent,
    ...change,
  };
}

/** The audit_event table's one owner for reading and retention (writes go through recordAudit, in the change's transaction). */
export class AuditStore {
  constructor(private readonly prisma: PrismaClient) {}

  /** Up to `limit` of the account's events, newest first (ties by id), after `after` when given. */
  async page(accountId: string, filter: AuditFilter, limit: number, after?: AuditPosition): Promise<AuditEvent[]> {
    const time = { ...(filter.from !== undefined ? { gte: new Date(filter.from) } : {}), ...(filter.to !== undefined ? { lt: new Date(filter.to) } : {}) };
    const rows = await this.prisma.auditEvent.findMany({
      where: {
        accountId,
        ...(filter.action ? { action: filter.action } : {}),
        ...(filter.actorType ? { actorType: filter.actorType } : {}),
        ...(Object.keys(time).length > 0 ? { time } : {}),
        ...(after ? { OR: [{ time: { lt: new Date(after.at) } }, { time: new Date(after.at), id: { gt: after.id } }] } : {}),
      },
      orderBy: [{ time: "desc" }, { id: "asc" }],
      take: limit,
    });
    return rows.map(toEvent);
  }

  /** Removes up to `batch` events older than `before`, across accounts; answers how many. */
  async prune(before: number, batch: number): Promise<number> {
    const rows = await this.prisma.auditEvent.findMany({ where: { time: { lt: new Date(before) } }, select: { id: true }, take: batch });
    if (rows.length === 0) return 0;
    const { count } = await this.prisma.auditEvent.deleteMany({ where: { id: { in: rows.map((row) => row.id) } } });
    return count;
  }
}
