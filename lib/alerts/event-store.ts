import { randomBytes } from "node:crypto";
import type { PrismaClient } from "../db/prisma.ts";
import { EVENT_TYPES, isEventType, type EventType, type StoredEvent } from "./alert-types.ts";

/** The client or an open transaction's: an event is written in the same transaction as its cause. */
export type EventWriter = Pick<PrismaClient, "alertEvent" | "webhookDelivery" | "webhookEndpoint" | "mailMessage" | "alertSettings" | "account">;

/** `evt_` and 24 random characters: an event's id, and the `webhook-id` of each of its deliveries. */
export const newEventId = () => `evt_${randomBytes(18).toString("base64url")}`;

const PAGE_MAX = 100;

/** The event table's one owner. */
export class EventStore {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * Stores an event. Throws Prisma's unique violation when `onceKey` was used before by this account (the event
   * already happened): on PostgreSQL that aborts the transaction, so the caller ends it (see Alerts.emit).
   */
  async insert<T extends EventType>(
    db: EventWriter,
    row: { accountId: string; type: T; data: unknown; onceKey: string | null },
    now: number,
  ): Promise<StoredEvent<T>> {
    const data = EVENT_TYPES[row.type].data.parse(row.data) as StoredEvent<T>["data"];
    const id = newEventId();
    await db.alertEvent.create({
      data: { id, accountId: row.accountId, type: row.type, data: JSON.stringify(data), onceKey: row.onceKey, createdAt: new Date(now) },
    });
    return { id, accountId: row.accountId, type: row.type, data, createdAt: now };
  }

  /** Whether the account already has the event `onceKey` names: lets a trigger skip the transaction. */
  async happened(accountId: string, onceKey: string): Promise<boolean> {
    return (await this.prisma.alertEvent.count({ where: { accountId, onceKey } })) > 0;
  }

  /**
   * Removes up to `batch` events older than `before` whose deliveries are all settled, with their deliveries and
   * attempts (the foreign keys cascade); answers how many. The delete checks again, so a delivery a retry made
   * pending meanwhile keeps its event.
   */
  async prune(before: number, batch: number): Promise<number> {
    const old = { createdAt: { lt: new Date(before) }, deliveries: { none: { status: "pending" } } };
    const rows = await this.prisma.alertEvent.findMany({ where: old, select: { id: true }, take: batch });
    if (rows.length === 0) return 0;
    const { count } = await this.prisma.alertEvent.deleteMany({ where: { id: { in: rows.map((row) => row.id) }, ...old } });
    return count;
  }

  async get(accountId: string, id: string): Promise<StoredEvent | null> {
    const row = await this.prisma.alertEvent.findFirst({ where: { id, accountId } });
    return row ? toEvent(row) : null;
  }

  /** Events by id, whichever accounts they belong to (the delivery worker's). */
  async getMany(ids: readonly string[]): Promise<Map<string, StoredEvent>> {
    const rows = await this.prisma.alertEvent.findMany({ where: { id: { in: [...ids] } } });
    return new Map(rows.map((row) => [row.id, toEvent(row)]));
  }

  /**
   * The account's events, newest first; `cursor` is the last id of the previous page. Ordered by (created_at,
   * id) so a page never repeats or skips an event that shares a millisecond with another.
   */
  async list(accountId: string, options: { type?: EventType; limit: number; cursor?: string }): Promise<{ events: StoredEvent[]; next: string | null }> {
    const limit = Math.min(Math.max(1, options.limit), PAGE_MAX);
    const after = options.cursor ? await this.prisma.alertEvent.findFirst({ where: { id: options.cursor, accountId } }) : null;
    const rows = await this.prisma.alertEvent.findMany({
      where: {
        accountId,
        ...(options.type ? { type: options.type } : {}),
        ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}),
      },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: limit + 1,
    });
    const events = rows.slice(0, limit).map(toEvent);
    return { events, next: rows.length > limit ? events[events.length - 1]!.id : null };
  }
}

function toEvent(row: { id: string; accountId: string; type: string; data: string; createdAt: Date }): StoredEvent {
  if (!isEventType(row.type)) throw new Error(`unknown event type ${row.type}`);
  return { id: row.id, accountId: row.accountId, type: row.type, data: JSON.parse(row.data), createdAt: row.createdAt.getTime() };
}
