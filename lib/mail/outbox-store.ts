import { randomUUID } from "node:crypto";
import type { PrismaClient } from "../db/prisma.ts";

/** The client or an open transaction's: a mail is written in the same transaction as its cause. */
export type MailWriter = Pick<PrismaClient, "mailMessage">;

export interface MailRow {
  id: string;
  kind: string;
  recipient: string;
  payload: string | null;
  attempts: number;
  createdAt: Date;
}

/**
 * The outbox table's one owner (mail_message). A worker claims a due row by moving its due time past a lease
 * in one conditional update: of two workers that read the same due row, only the first update matches, on
 * SQLite (writes are serialised) and on PostgreSQL (the second update re-checks the row it waited for).
 */
export class OutboxStore {
  constructor(private readonly prisma: PrismaClient) {}

  async insert(
    db: MailWriter,
    row: { accountId: string | null; kind: string; recipient: string; payload: string },
    now: number,
  ): Promise<string> {
    const id = randomUUID();
    await db.mailMessage.create({ data: { id, ...row, dueAt: new Date(now), createdAt: new Date(now) } });
    return id;
  }

  /** Mail not yet sent nor given up on. */
  pending(): Promise<number> {
    return this.prisma.mailMessage.count({ where: { status: "pending" } });
  }

  /** Ids of pending rows due at `now` and held by no live lease, the longest waiting first. */
  async due(now: number, limit: number): Promise<string[]> {
    const rows = await this.prisma.mailMessage.findMany({
      where: { status: "pending", dueAt: { lte: new Date(now) } },
      orderBy: { dueAt: "asc" },
      take: limit,
      select: { id: true },
    });
    return rows.map((r) => r.id);
  }

  /** Takes the row for `owner` until now + leaseMs, counting an attempt; null when another worker has it. */
  async claim(id: string, owner: string, now: number, leaseMs: number): Promise<MailRow | null> {
    const { count } = await this.prisma.mailMessage.updateMany({
      where: { id, status: "pending", dueAt: { lte: new Date(now) } },
      data: { leaseOwner: owner, dueAt: new Date(now + leaseMs), attempts: { increment: 1 } },
    });
    if (count !== 1) return null;
    return this.prisma.mailMessage.findUnique({
      where: { id },
      select: { id: true, kind: true, recipient: true, payload: true, attempts: true, createdAt: true },
    });
  }

  /** Sent: its payload (the links and their tokens) is cleared. False when the lease was lost meanwhile. */
  async sent(id: string, owner: string, now: number): Promise<boolean> {
    return this.settle(id, owner, { status: "sent", sentAt: new Date(now), payload: null, lastError: null });
  }

  async retryAt(id: string, owner: string, dueAt: number, error: string): Promise<boolean> {
    return this.settle(id, owner, { dueAt: new Date(dueAt), lastError: error });
  }

  async failed(id: string, owner: string, error: string): Promise<boolean> {
    return this.settle(id, owner, { status: "failed", payload: null, lastError: error });
  }

  /** Removes mail sent or given up on before `before` (a deleted account's last mail among them); answers how many. */
  async prune(before: number): Promise<number> {
    const { count } = await this.prisma.mailMessage.deleteMany({ where: { status: { in: ["sent", "failed"] }, createdAt: { lt: new Date(before) } } });
    return count;
  }

  private async settle(id: string, owner: string, data: Record<string, unknown>): Promise<boolean> {
    const { count } = await this.prisma.mailMessage.updateMany({
      where: { id, leaseOwner: owner, status: "pending" },
      data: { ...data, leaseOwner: null },
    });
    return count === 1;
  }
}
