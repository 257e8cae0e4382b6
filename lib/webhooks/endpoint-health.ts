import type { PrismaClient } from "../db/prisma.ts";
import type { Outbox } from "../mail/outbox.ts";
import type { DeliveryStore } from "./delivery-store.ts";
import type { DeliveryTarget, EndpointStore } from "./endpoint-store.ts";

export const DISABLE_AFTER_DAYS = 5;
const DISABLE_AFTER_MS = DISABLE_AFTER_DAYS * 24 * 3600_000;

export interface EndpointHealthDeps {
  prisma: PrismaClient;
  endpoints: EndpointStore;
  deliveries: DeliveryStore;
  outbox: Outbox;
  /** The account's confirmed address, else null: the notice is mail the user did not ask for. */
  addressOf: (accountId: string) => Promise<string | null>;
  /** The dashboard's public address, which the notice links to. */
  origin: string;
}

/**
 * What each attempt's outcome does to its endpoint: a 2xx makes it healthy; failures with no success for five
 * days turn it off, give up its pending deliveries and mail its owner, all in one transaction (one worker
 * wins the disable, so the owner gets one mail).
 */
export class EndpointHealth {
  constructor(private readonly deps: EndpointHealthDeps) {}

  succeeded(endpointIds: readonly string[], now: number): Promise<void> {
    return this.deps.endpoints.succeeded(endpointIds, now);
  }

  /** Answers whether this failure turned the endpoint off. */
  async failed(endpoint: DeliveryTarget, now: number): Promise<boolean> {
    const { prisma, endpoints, deliveries, outbox, addressOf, origin } = this.deps;
    const health = await endpoints.failed(endpoint.id, now);
    if (!health || now - health.failingSince < DISABLE_AFTER_MS) return false;
    const to = await addressOf(endpoint.accountId);
    return prisma.$transaction(async (tx) => {
      const reason = `No delivery succeeded for ${DISABLE_AFTER_DAYS} days (failing since ${new Date(health.failingSince).toISOString()}).`;
      if (!(await endpoints.disable(endpoint.id, reason, tx))) return false;
      await deliveries.abandon(endpoint.id, tx);
      if (to) {
        const data = { url: endpoint.url, days: DISABLE_AFTER_DAYS, link: `${origin}/dashboard/alerts` };
        await outbox.queue(tx, { kind: "webhook_disabled", to, accountId: endpoint.accountId, data }, now);
      }
      return true;
    });
  }
}
