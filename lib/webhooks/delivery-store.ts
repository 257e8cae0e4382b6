import { randomUUID } from "node:crypto";
import type { PrismaClient } from "../db/prisma.ts";
import type { EventWriter } from "../alerts/event-store.ts";

/** A delivery a worker holds: which event to which endpoint, and how many POSTs were made before. */
export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  /** Counting this one. */
  attempts: number;
  createdAt: number;
}

/** A delivery a worker may claim. */
export interface DueDelivery {
  id: string;
  endpointId: string;
  accountId: string;
}

/** How much of a batch one endpoint and one account may take, and who already has enough in flight. */
export interface DueShares {
  perEndpoint: number;
  perAccount: number;
  busyEndpoints?: readonly string[];
  busyAccounts?: readonly string[];
}

/** How one POST of a claimed delivery went, made at `at`. */
export interface Settlement {
  delivery: ClaimedDelivery;
  attempt: { statusCode: number | null; ok: boolean; durationMs: number; error: string | null; nextAttemptAt: number | null };
  at: number;
}

/** One POST, as the endpoint's delivery log shows it. */
export interface DeliveryAttempt {
  id: string;
  deliveryId: string;
  eventId: string;
  type: string;
  attempt: number;
  statusCode: number | null;
  ok: boolean;
  durationMs: number;
  error: string | null;
  createdAt: number;
  nextAttemptAt: number | null;
}

/**
 * The webhook_delivery and webhook_attempt tables' one owner. A worker claims a due delivery by moving its due
 * time past a lease in one conditional update, as the outbox does (lib/mail/outbox-store.ts): of two workers
 * that read the same row only one update matches, so no event reaches one endpoint twice at once.
 */
export class DeliveryStore {
  constructor(private readonly prisma: PrismaClient) {}

  /** A delivery of the event to each endpoint, due now, in the event's transaction. */
  async insert(db: EventWriter, eventId: string, endpointIds: readonly string[], now: number): Promise<void> {
    for (const endpointId of endpointIds) {
      await db.webhookDelivery.create({ data: { id: randomUUID(), endpointId, eventId, dueAt: new Date(now), createdAt: new Date(now) } });
    }
  }

  /**
   * Pending deliveries due at `now` and held by no live lease, the longest waiting first, at most `perEndpoint`
   * of one endpoint and `perAccount` of one account, so one endpoint's or account's backlog does not fill a
   * batch, and none of the busy endpoints and accounts (those the caller already has enough of in flight).
   */
  async due(now: number, limit: number, shares: DueShares): Promise<DueDelivery[]> {
    const { busyEndpoints = [], busyAccounts = [] } = shares;
    const rows = await this.prisma.webhookDelivery.findMany({
      where: {
        status: "pending",
        dueAt: { lte: new Date(now) },
        endpoint: { enabled: true, ...(busyAccounts.length > 0 ? { accountId: { notIn: [...busyAccounts] } } : {}) },
        ...(busyEndpoints.length > 0 ? { endpointId: { notIn: [...busyEndpoints] } } : {}),
      },
      orderBy: { dueAt: "asc" },
      take: limit * 4,
      select: { id: true, endpointId: true, endpoint: { select: { accountId: true } } },
    });
    const byEndpoint = new Map<string, number>();
    const byAccount = new Map<string, number>();
    const due: DueDelivery[] = [];
    for (const { id, endpointId, endpoint } of rows) {
      const { accountId } = endpoint;
      const n = byEndpoint.get(endpointId) ?? 0;
      const m = byAccount.get(accountId) ?? 0;
      if (n >= shares.perEndpoint || m >= shares.perAccount) continue;
      byEndpoint.set(endpointId, n + 1);
      byAccount.set(accountId, m + 1);
      due.push({ id, endpointId, accountId });
      if (due.length === limit) break;
    }
    return due;
  }

  /**
   * Takes the deliveries for `owner` until now + leaseMs, counting an attempt each, in one update; answers those
   * it got (not those another worker took first). The lease's end, exact to the millisecond and under this
   * owner, tells this claim's rows from any other.
   */
  async claim(ids: readonly string[], owner: string, now: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    if (ids.length === 0) return [];
    const leaseEnd = new Date(now + leaseMs);
    const { count } = await this.prisma.webhookDelivery.updateMany({
      where: { id: { in: [...ids] }, status: "pending", dueAt: { lte: new Date(now) } },
      data: { leaseOwner: owner, dueAt: leaseEnd, attempts: { increment: 1 } },
    });
    if (count === 0) return [];
    const rows = await this.prisma.webhookDelivery.findMany({
      where: { id: { in: [...ids] }, leaseOwner: owner, dueAt: leaseEnd, status: "pending" },
      select: { id: true, endpointId: true, eventId: true, attempts: true, createdAt: true },
    });
    return rows.map((row) => ({ ...row, createdAt: row.createdAt.getTime() }));
  }

  /**
   * Settles claimed deliveries and logs their attempts in one transaction: `nextAttemptAt` null ends one
   * (succeeded when ok, else failed). Answers the ids settled; one whose lease was lost meanwhile is not (and
   * nothing is written for it).
   */
  async settle(owner: string, settlements: readonly Settlement[]): Promise<Set<string>> {
    if (settlements.length === 0) return new Set();
    return this.prisma.$transaction(async (tx) => {
      const ids = settlements.map((s) => s.delivery.id);
      const held = await tx.webhookDelivery.findMany({ where: { id: { in: ids }, leaseOwner: owner, status: "pending" }, select: { id: true } });
      const settled = new Set(held.map((row) => row.id));
      const kept = settlements.filter((s) => settled.has(s.delivery.id));
      const ending = (status: "succeeded" | "failed", ended: Settlement[]) =>
        ended.length === 0
          ? null
          : tx.webhookDelivery.updateMany({ where: { id: { in: ended.map((s) => s.delivery.id) }, leaseOwner: owner }, data: { status, leaseOwner: null } });
      await ending("succeeded", kept.filter((s) => s.attempt.ok));
      await ending("failed", kept.filter((s) => !s.attempt.ok && s.attempt.nextAttemptAt === null));
      for (const retry of kept.filter((s) => !s.attempt.ok && s.attempt.nextAttemptAt !== null)) {
        await tx.webhookDelivery.updateMany({ where: { id: retry.delivery.id, leaseOwner: owner }, data: { leaseOwner: null, dueAt: new Date(retry.attempt.nextAttemptAt!) } });
      }
      await tx.webhookAttempt.createMany({
        data: kept.map(({ delivery, attempt, at }) => ({
          id: randomUUID(),
          deliveryId: delivery.id,
          endpointId: delivery.endpointId,
          attempt: delivery.attempts,
          statusCode: attempt.statusCode,
          ok: attempt.ok,
          durationMs: attempt.durationMs,
          error: attempt.error,
          createdAt: new Date(at),
          nextAttemptAt: attempt.nextAttemptAt === null ? null : new Date(attempt.nextAttemptAt),
        })),
      });
      return settled;
    });
  }

  /** Every pending delivery of a disabled endpoint stops: they are marked failed. */
  async abandon(endpointId: string, db: Pick<PrismaClient, "webhookDelivery"> = this.prisma): Promise<number> {
    const { count } = await db.webhookDelivery.updateMany({ where: { endpointId, status: "pending" }, data: { status: "failed", leaseOwner: null } });
    return count;
  }

  /**
   * Sends the delivery again now (its retry button): pending and due at once, unless a worker holds it right
   * now. Null when the endpoint (of this account) has no such delivery.
   */
  async retryNow(accountId: string, endpointId: string, deliveryId: string, now: number): Promise<"queued" | "in_flight" | null> {
    const row = await this.prisma.webhookDelivery.findFirst({ where: { id: deliveryId, endpointId, endpoint: { accountId } }, select: { id: true } });
    if (!row) return null;
    const { count } = await this.prisma.webhookDelivery.updateMany({
      where: { id: deliveryId, OR: [{ status: { not: "pending" } }, { leaseOwner: null }, { dueAt: { lte: new Date(now) } }] },
      data: { status: "pending", dueAt: new Date(now), leaseOwner: null },
    });
    return count === 1 ? "queued" : "in_flight";
  }

  /**
   * The endpoint's delivery that `id` names: an attempt's (as the delivery log lists them) or the delivery's
   * own id; null when it is not the endpoint's.
   */
  async deliveryOf(endpointId: string, id: string): Promise<{ id: string; eventId: string } | null> {
    const attempt = await this.prisma.webhookAttempt.findFirst({ where: { id, endpointId }, select: { delivery: { select: { id: true, eventId: true } } } });
    return attempt?.delivery ?? (await this.prisma.webhookDelivery.findFirst({ where: { id, endpointId }, select: { id: true, eventId: true } }));
  }

  /** The endpoint's attempts, newest first (with the event's type). */
  async attempts(endpointId: string, limit: number, before?: { createdAt: number; id: string }): Promise<DeliveryAttempt[]> {
    const rows = await this.prisma.webhookAttempt.findMany({
      where: {
        endpointId,
        ...(before ? { OR: [{ createdAt: { lt: new Date(before.createdAt) } }, { createdAt: new Date(before.createdAt), id: { lt: before.id } }] } : {}),
      },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: limit,
      include: { delivery: { select: { eventId: true, event: { select: { type: true } } } } },
    });
    return rows.map((row) => ({
      id: row.id,
      deliveryId: row.deliveryId,
      eventId: row.delivery.eventId,
      type: row.delivery.event.type,
      attempt: row.attempt,
      statusCode: row.statusCode,
      ok: row.ok,
      durationMs: row.durationMs,
      error: row.error,
      createdAt: row.createdAt.getTime(),
      nextAttemptAt: row.nextAttemptAt?.getTime() ?? null,
    }));
  }
}
