import { randomBytes } from "node:crypto";
import { isPostgresClient, type PrismaClient } from "../db/prisma.ts";
import type { EventType } from "../alerts/alert-types.ts";
import type { EventWriter } from "../alerts/event-store.ts";
import type { KeyVault } from "../security/secrets.ts";
import type { AuditWriter } from "../audit/record.ts";

/** Runs in the transaction of an endpoint's change (its audit event): the change commits with it or not at all. */
export type WithinEndpointChange = (tx: AuditWriter, before: WebhookEndpoint | null, after: WebhookEndpoint | null) => Promise<unknown>;

export type WebhookFormat = "standard" | "slack" | "discord";
export const WEBHOOK_FORMATS: readonly WebhookFormat[] = ["standard", "slack", "discord"];

/** What an endpoint's owner sees: never its secret. */
export interface WebhookEndpoint {
  id: string;
  accountId: string;
  url: string;
  events: EventType[];
  format: WebhookFormat;
  description: string | null;
  enabled: boolean;
  /** Why the service turned it off (5 days without a success); null when on or turned off by its owner. */
  disabledReason: string | null;
  createdAt: number;
  lastSuccessAt: number | null;
  failingSince: number | null;
}

/** The secrets a delivery is signed with: the current one, and the one before a roll while its 24 hours last. */
export interface SigningSecrets {
  current: string;
  previous: string | null;
}

/** An endpoint as a delivery needs it: where, in which format, signed with what. */
export interface DeliveryTarget {
  id: string;
  accountId: string;
  url: string;
  format: WebhookFormat;
  enabled: boolean;
  secrets: SigningSecrets;
}

/** `we_` and 22 random characters. */
export const newEndpointId = () => `we_${randomBytes(16).toString("base64url")}`;

/** `whsec_` and the base64 of 24 random bytes: Standard Webhooks' secret form. */
export const newWebhookSecret = () => `whsec_${randomBytes(24).toString("base64")}`;

/** Thrown inside createWithin's transaction to roll it back. */
const OVER_LIMIT = Symbol("over the endpoint limit");

type Row = {
  id: string; accountId: string; url: string; events: string; format: string; description: string | null; enabled: boolean;
  disabledReason: string | null; createdAt: Date; lastSuccessAt: Date | null; failingSince: Date | null;
};

export function toEndpoint(row: Row): WebhookEndpoint {
  return {
    id: row.id,
    accountId: row.accountId,
    url: row.url,
    events: row.events === "" ? [] : (row.events.split(",") as EventType[]),
    format: row.format as WebhookFormat,
    description: row.description,
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    createdAt: row.createdAt.getTime(),
    lastSuccessAt: row.lastSuccessAt?.getTime() ?? null,
    failingSince: row.failingSince?.getTime() ?? null,
  };
}

/**
 * The webhook_endpoint table's one owner. Secrets are sealed under the server secret (they sign every
 * delivery, so they cannot be hashed); only create and roll answer one in the clear.
 */
export class EndpointStore {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly vault: KeyVault,
  ) {}

  async create(
    accountId: string,
    input: { url: string; events: EventType[]; format: WebhookFormat; description: string | null },
    now: number,
  ): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    const secret = newWebhookSecret();
    const row = await this.prisma.webhookEndpoint.create({
      data: { id: newEndpointId(), accountId, ...input, events: input.events.join(","), secret: this.vault.encrypt(secret), createdAt: new Date(now) },
    });
    return { endpoint: toEndpoint(row), secret };
  }

  /**
   * As `create`, unless the account has `max` endpoints already: then null. Creates of one account wait for
   * each other, so concurrent ones cannot pass the limit: on SQLite the row is written first, which holds the
   * database's one write lock until the count is checked; on PostgreSQL an advisory lock of the account's is
   * taken before anything.
   */
  async createWithin(
    max: number,
    accountId: string,
    input: { url: string; events: EventType[]; format: WebhookFormat; description: string | null },
    now: number,
    within?: WithinEndpointChange,
  ): Promise<{ endpoint: WebhookEndpoint; secret: string } | null> {
    const secret = newWebhookSecret();
    const data = { id: newEndpointId(), accountId, ...input, events: input.events.join(","), secret: this.vault.encrypt(secret), createdAt: new Date(now) };
    try {
      const row = await this.prisma.$transaction(async (tx) => {
        if (isPostgresClient(this.prisma)) await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`webhook_endpoint:${accountId}`}, 0))`;
        const row = await tx.webhookEndpoint.create({ data });
        if ((await tx.webhookEndpoint.count({ where: { accountId } })) > max) throw OVER_LIMIT;
        await within?.(tx, null, toEndpoint(row));
        return row;
      });
      return { endpoint: toEndpoint(row), secret };
    } catch (error) {
      if (error === OVER_LIMIT) return null;
      throw error;
    }
  }

  async count(accountId: string): Promise<number> {
    return this.prisma.webhookEndpoint.count({ where: { accountId } });
  }

  async list(accountId: string): Promise<WebhookEndpoint[]> {
    const rows = await this.prisma.webhookEndpoint.findMany({ where: { accountId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    return rows.map(toEndpoint);
  }

  /** Null for another account's endpoint as for none. */
  async get(accountId: string, id: string): Promise<WebhookEndpoint | null> {
    const row = await this.prisma.webhookEndpoint.findFirst({ where: { id, accountId } });
    return row ? toEndpoint(row) : null;
  }

  async update(
    accountId: string,
    id: string,
    change: Partial<{ url: string; events: EventType[]; enabled: boolean; description: string | null }>,
    within?: WithinEndpointChange,
  ): Promise<WebhookEndpoint | null> {
    return this.prisma.$transaction(async (tx) => {
      const before = await tx.webhookEndpoint.findFirst({ where: { id, accountId } });
      if (!before) return null;
      const { count } = await tx.webhookEndpoint.updateMany({
        where: { id, accountId },
        data: {
          ...change,
          events: change.events?.join(","),
          // Turned on again by its owner: it gets a fresh five days.
          ...(change.enabled === true ? { disabledReason: null, failingSince: null } : {}),
        },
      });
      const after = count === 1 ? await tx.webhookEndpoint.findFirst({ where: { id, accountId } }) : null;
      if (!after) return null;
      await within?.(tx, toEndpoint(before), toEndpoint(after));
      return toEndpoint(after);
    });
  }

  async delete(accountId: string, id: string, within?: WithinEndpointChange): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const before = await tx.webhookEndpoint.findFirst({ where: { id, accountId } });
      if (!before) return false;
      const { count } = await tx.webhookEndpoint.deleteMany({ where: { id, accountId } });
      if (count !== 1) return false;
      await within?.(tx, toEndpoint(before), null);
      return true;
    });
  }

  /** A new secret; the old one keeps signing beside it until `previousUntil`. Null for no such endpoint. */
  async rollSecret(accountId: string, id: string, previousUntil: number): Promise<string | null> {
    const row = await this.prisma.webhookEndpoint.findFirst({ where: { id, accountId }, select: { secret: true } });
    if (!row) return null;
    const secret = newWebhookSecret();
    const { count } = await this.prisma.webhookEndpoint.updateMany({
      where: { id, accountId, secret: row.secret },
      data: { secret: this.vault.encrypt(secret), previousSecret: row.secret, previousSecretUntil: new Date(previousUntil) },
    });
    // Another roll won the race: this one's secret never took effect.
    return count === 1 ? secret : null;
  }

  /** The secrets signing a delivery at `now`. */
  async signingSecrets(id: string, now: number): Promise<SigningSecrets | null> {
    return (await this.deliveryTargets([id], now)).get(id)?.secrets ?? null;
  }

  /** Where and how deliveries go at `now`, by endpoint id, in one read (the delivery worker's). */
  async deliveryTargets(ids: readonly string[], now: number): Promise<Map<string, DeliveryTarget>> {
    const rows = await this.prisma.webhookEndpoint.findMany({
      where: { id: { in: [...ids] } },
      select: { id: true, accountId: true, url: true, format: true, enabled: true, secret: true, previousSecret: true, previousSecretUntil: true },
    });
    return new Map(
      rows.map((row) => {
        const previous = row.previousSecret && row.previousSecretUntil && row.previousSecretUntil.getTime() > now ? this.vault.decrypt(row.previousSecret) : null;
        const secrets = { current: this.vault.decrypt(row.secret), previous };
        return [row.id, { id: row.id, accountId: row.accountId, url: row.url, format: row.format as WebhookFormat, enabled: row.enabled, secrets }];
      }),
    );
  }

  /** The enabled endpoints of an account that listen for `type`, in the event's transaction. */
  async listening(db: EventWriter, accountId: string, type: EventType): Promise<{ id: string }[]> {
    const rows = await db.webhookEndpoint.findMany({ where: { accountId, enabled: true }, select: { id: true, events: true } });
    return rows.filter((row) => row.events.split(",").includes(type)).map(({ id }) => ({ id }));
  }

  /** A 2xx arrived: the endpoints are healthy again. */
  async succeeded(ids: readonly string[], now: number): Promise<void> {
    await this.prisma.webhookEndpoint.updateMany({ where: { id: { in: [...ids] } }, data: { lastSuccessAt: new Date(now), failingSince: null } });
  }

  /** A delivery failed: marks when the failures began (the first one since the last success). */
  async failed(id: string, now: number): Promise<{ failingSince: number } | null> {
    await this.prisma.webhookEndpoint.updateMany({ where: { id, failingSince: null }, data: { failingSince: new Date(now) } });
    const row = await this.prisma.webhookEndpoint.findUnique({ where: { id }, select: { failingSince: true } });
    return row?.failingSince ? { failingSince: row.failingSince.getTime() } : null;
  }

  /** Turns the endpoint off for `reason`; false when it already was (only one caller mails its owner). */
  async disable(id: string, reason: string, db: Pick<PrismaClient, "webhookEndpoint"> = this.prisma): Promise<boolean> {
    const { count } = await db.webhookEndpoint.updateMany({ where: { id, enabled: true }, data: { enabled: false, disabledReason: reason } });
    return count === 1;
  }
}
