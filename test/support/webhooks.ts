import { randomBytes } from "node:crypto";
import { EmailVerification } from "../../lib/accounts/email-verification.ts";
import type { EventData, EventType, StoredEvent } from "../../lib/alerts/alert-types.ts";
import { openAlerts, type AlertKit } from "../../lib/alerts/open-alerts.ts";
import { openOutbox } from "../../lib/mail/outbox.ts";
import { DeliveryWorker, type DeliveryWorkerOptions } from "../../lib/webhooks/delivery-worker.ts";
import { EndpointHealth } from "../../lib/webhooks/endpoint-health.ts";
import type { WebhookFormat } from "../../lib/webhooks/endpoint-store.ts";
import type { StoreDatabase } from "./stores.ts";

export const WEBHOOK_ORIGIN = "https://sharecount.example.com";

export const BULK_DONE: EventData<"bulk.completed"> = {
  bulk_id: "b_123",
  urls: 1000,
  completed: 980,
  failed: 20,
  quota_spent: 1000,
  finished_at: "2026-11-27T09:00:00.000Z",
};

/** Accounts, endpoints, events and delivery workers on one test database, on the test's clock. */
export interface WebhookFixture {
  kit: AlertKit;
  secret: Buffer;
  /** A new account on plan `free`; its address confirmed unless told otherwise. */
  account(options?: { verified?: boolean }): Promise<{ id: string; email: string }>;
  endpoint(accountId: string, url: string, options?: { format?: WebhookFormat; events?: EventType[] }): Promise<{ id: string; secret: string }>;
  /** A bulk.completed event (or the one given) and its deliveries. */
  emit<T extends EventType = "bulk.completed">(accountId: string, type?: T, data?: EventData<T>): Promise<StoredEvent<T>>;
  /** A worker on loopback (WEBHOOK_ALLOW_PRIVATE_HOSTS=true unless told), stopped by `stopWorkers`. */
  worker(options?: Partial<DeliveryWorkerOptions>): DeliveryWorker;
  stopWorkers(): Promise<void>;
}

/** `secret`: the server secret endpoints' secrets are sealed under (a child process's SHARECOUNT_SECRET). */
export function webhookFixture(db: () => StoreDatabase, now: () => number, secret: Buffer = randomBytes(32)): WebhookFixture {
  const workers: DeliveryWorker[] = [];
  let seq = 0;
  let kit: AlertKit | null = null;
  const prisma = () => db().prisma;
  const fixture: WebhookFixture = {
    get kit() {
      return (kit ??= openAlerts(prisma(), secret, "https://sharecount.example.com"));
    },
    secret,
    async account({ verified = true } = {}) {
      await prisma().plan.upsert({ where: { name: "free" }, create: { name: "free", dailyQuota: 100, bulkBatchLimit: 0, customTtlAllowed: false }, update: {} });
      const id = `acct-${randomBytes(6).toString("hex")}-${++seq}`;
      const email = `${id}@example.com`;
      await prisma().account.create({ data: { id, email, planName: "free", emailVerified: verified ? new Date(now()) : null } });
      return { id, email };
    },
    async endpoint(accountId, url, { format = "standard", events = ["bulk.completed", "webhook.test"] as EventType[] } = {}) {
      const created = await fixture.kit.endpoints.create(accountId, { url, events, format, description: null }, now());
      return { id: created.endpoint.id, secret: created.secret };
    },
    async emit(accountId, type, data) {
      const event = await fixture.kit.alerts.emit({ accountId, type: type ?? "bulk.completed", data: data ?? BULK_DONE } as never, now());
      if (!event) throw new Error("the event was not stored");
      return event as never;
    },
    worker(options = {}) {
      const outbox = openOutbox(prisma(), secret);
      const verification = new EmailVerification(prisma(), outbox, WEBHOOK_ORIGIN);
      const { endpoints, deliveries, alerts } = fixture.kit;
      const health = new EndpointHealth({ prisma: prisma(), endpoints, deliveries, outbox, addressOf: (id) => verification.verifiedAddressOf(id), origin: WEBHOOK_ORIGIN });
      const worker = new DeliveryWorker({ events: alerts.events, endpoints, deliveries, health, allowPrivateHosts: true, now, log: () => {}, ...options });
      workers.push(worker);
      return worker;
    },
    async stopWorkers() {
      await Promise.all(workers.splice(0).map((worker) => worker.stop()));
    },
  };
  return fixture;
}
