import type { PrismaClient } from "../db/prisma.ts";
import { isUniqueViolation } from "../db/unique-violation.ts";
import type { EventData, EventType, StoredEvent } from "./alert-types.ts";
import { EventStore, type EventWriter } from "./event-store.ts";

const BUSY_TRIES = 5;

/** A channel an event goes out on: writes its rows (a delivery, a mail) in the event's transaction. */
export interface AlertChannel {
  fanOut(db: EventWriter, event: StoredEvent, now: number): Promise<void>;
}

export interface Emitted<T extends EventType> {
  accountId: string;
  type: T;
  data: EventData<T>;
  /** Once-only events carry a key unique per account (e.g. `quota.warning:2026-11-27`); a repeat is dropped. */
  onceKey?: string;
}

/**
 * Records what happened to an account and hands it to every channel (webhook endpoints, mail) in one
 * transaction: the event and the rows that deliver it are written together or not at all, and workers send
 * them later under a lease. Triggers call `emit`; it never sends anything itself.
 */
export class Alerts {
  readonly events: EventStore;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly channels: readonly AlertChannel[],
  ) {
    this.events = new EventStore(prisma);
  }

  /**
   * Stores the event and its deliveries in one transaction; null when its once-key was used before (under
   * concurrency too, in every process: the key is unique in the table) or the account is gone.
   */
  async emit<T extends EventType>(event: Emitted<T>, now: number): Promise<StoredEvent<T> | null> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.prisma.$transaction((tx) => this.write(tx, event, now));
      } catch (error) {
        // P2003: the account was deleted meanwhile (its foreign key is gone), nobody is left to tell.
        if (isUniqueViolation(error) || (error as { code?: string }).code === "P2003") return null;
        // SQLite: the store's connection wrote between this transaction's read and its write; start again.
        if (attempt < BUSY_TRIES && /SQLITE_BUSY/.test(String((error as { code?: unknown }).code ?? ""))) continue;
        throw error;
      }
    }
  }

  /** Inside the cause's own transaction (no once-key there: a repeat would abort the cause's transaction). */
  async emitWithin<T extends EventType>(db: EventWriter, event: Omit<Emitted<T>, "onceKey">, now: number): Promise<StoredEvent<T>> {
    return this.write(db, event, now);
  }

  private async write<T extends EventType>(db: EventWriter, event: Emitted<T>, now: number): Promise<StoredEvent<T>> {
    const stored = await this.events.insert(db, { accountId: event.accountId, type: event.type, data: event.data, onceKey: event.onceKey ?? null }, now);
    for (const channel of this.channels) await channel.fanOut(db, stored, now);
    return stored;
  }
}
