import { randomUUID } from "node:crypto";
import type { EventStore } from "../alerts/event-store.ts";
import type { HostLookup } from "../net/guarded-agent.ts";
import type { DeliveryStore, DueDelivery } from "./delivery-store.ts";
import type { EndpointHealth } from "./endpoint-health.ts";
import type { EndpointStore } from "./endpoint-store.ts";
import { webhookRequest } from "./payload.ts";
import { createWebhookPoster, type WebhookPoster } from "./post-webhook.ts";
import { nextAttemptAt } from "./retry-schedule.ts";

export interface DeliveryWorkerOptions {
  events: EventStore;
  endpoints: EndpointStore;
  deliveries: DeliveryStore;
  health: EndpointHealth;
  /** Loopback and private addresses may be delivered to (WEBHOOK_ALLOW_PRIVATE_HOSTS). */
  allowPrivateHosts: boolean;
  now: () => number;
  log?: (line: string) => void;
  /** How often it looks for due deliveries when none was announced. */
  pollMs?: number;
  /** One POST's limit, from resolving the host to the answer. */
  timeoutMs?: number;
  /** How long a claimed delivery stays with this worker: past the timeout and the writes around it. */
  leaseMs?: number;
  /** POSTs in flight at once, and at most this many to one endpoint. */
  concurrency?: number;
  perEndpoint?: number;
  /** Seams for tests (see post-webhook.ts). */
  lookup?: HostLookup;
  alsoPublic?: readonly string[];
}

/**
 * Delivers webhooks: claims due deliveries under a lease and POSTs them, many at once (a bounded pool, a few
 * per endpoint, so a slow endpoint holds only its own slots), retrying on Standard Webhooks' schedule.
 * kill -9 loses nothing: a claimed delivery stays pending and is due again when its lease ends; the claim
 * keeps any event from reaching one endpoint twice at once.
 */
export class DeliveryWorker {
  private readonly owner = randomUUID();
  private readonly poster: WebhookPoster;
  private readonly log: (line: string) => void;
  private readonly concurrency: number;
  private readonly perEndpoint: number;
  /** Deliveries being attempted: each settles true when its attempt was recorded. */
  private readonly inFlight = new Map<string, Promise<boolean>>();
  private readonly endpointLoad = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private filling: Promise<void> | null = null;
  private fillAgain = false;
  /** The last look found as many as it had room for: more may be waiting once a slot frees. */
  private backlog = false;
  private stopped = true;

  constructor(private readonly options: DeliveryWorkerOptions) {
    this.log = options.log ?? console.log;
    this.concurrency = options.concurrency ?? 16;
    this.perEndpoint = options.perEndpoint ?? 4;
    this.poster = createWebhookPoster({
      allowPrivateHosts: options.allowPrivateHosts,
      timeoutMs: options.timeoutMs ?? 10_000,
      lookup: options.lookup,
      alsoPublic: options.alsoPublic,
    });
  }

  start(): void {
    this.stopped = false;
    this.wake();
  }

  /** Deliveries were queued in this process: look now rather than at the next poll. */
  notify(): void {
    if (!this.stopped) this.wake();
  }

  /** Takes no more deliveries and waits for the POSTs in flight (each ends within the timeout). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.filling;
    await Promise.all(this.inFlight.values());
    await this.poster.close();
  }

  /** Starts what is due now, as far as the pool has room, and waits for it; answers how many were recorded. */
  async runOnce(): Promise<number> {
    await this.fill();
    const recorded = await Promise.all(this.inFlight.values());
    return recorded.filter(Boolean).length;
  }

  private wake(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.filling) {
      this.fillAgain = true;
      return;
    }
    this.filling = this.fill()
      .catch((error: unknown) => this.log(JSON.stringify({ event: "webhook_worker_error", error: String(error) })))
      .finally(() => {
        this.filling = null;
        if (this.stopped) return;
        if (this.fillAgain) {
          this.fillAgain = false;
          this.wake();
        } else {
          this.timer = setTimeout(() => this.wake(), this.options.pollMs ?? 1000).unref();
        }
      });
  }

  private async fill(): Promise<void> {
    const room = this.concurrency - this.inFlight.size;
    if (room <= 0) {
      this.backlog = true;
      return;
    }
    const busy = [...this.endpointLoad].filter(([, n]) => n >= this.perEndpoint).map(([id]) => id);
    const due = await this.options.deliveries.due(this.options.now(), room, this.perEndpoint, busy);
    let started = 0;
    for (const delivery of due) {
      if (this.inFlight.has(delivery.id) || (this.endpointLoad.get(delivery.endpointId) ?? 0) >= this.perEndpoint) continue;
      this.begin(delivery);
      started++;
    }
    this.backlog = started === room;
  }

  private begin(delivery: DueDelivery): void {
    const { id, endpointId } = delivery;
    this.endpointLoad.set(endpointId, (this.endpointLoad.get(endpointId) ?? 0) + 1);
    const attempt = this.attempt(delivery)
      .catch((error: unknown) => {
        // The delivery keeps its lease and is tried again once it ends.
        this.log(JSON.stringify({ event: "webhook_attempt_error", delivery: id, error: String(error) }));
        return false;
      })
      .finally(() => {
        this.inFlight.delete(id);
        const load = (this.endpointLoad.get(endpointId) ?? 1) - 1;
        if (load === 0) this.endpointLoad.delete(endpointId);
        else this.endpointLoad.set(endpointId, load);
        if (this.backlog && !this.stopped) this.wake();
      });
    this.inFlight.set(id, attempt);
  }

  /** One POST of a claimed delivery, recorded with its outcome; false when it was not claimed or not sent. */
  private async attempt({ id, endpointId }: DueDelivery): Promise<boolean> {
    const { events, endpoints, deliveries, health, now } = this.options;
    const claimed = await deliveries.claim(id, this.owner, now(), this.options.leaseMs ?? 60_000);
    if (!claimed) return false;
    const target = await endpoints.deliveryTarget(endpointId, now());
    // Turned off since it was found due: it waits, pending, until its owner turns it on again.
    if (!target?.enabled) return false;
    const event = await events.get(target.accountId, claimed.eventId);
    if (!event) return false;
    const outcome = await this.poster.post(target.url, webhookRequest(event, target.format, target.secrets, now()));
    const at = now();
    const next = outcome.ok ? null : nextAttemptAt(claimed.attempts, at);
    if (!(await deliveries.settle(claimed, this.owner, { ...outcome, nextAttemptAt: next }, at))) return false;
    if (outcome.ok) {
      await health.succeeded(endpointId, at);
      return true;
    }
    if (next === null) {
      this.log(JSON.stringify({ event: "webhook_failed", delivery: id, endpoint: endpointId, type: event.type, attempts: claimed.attempts, error: outcome.error ?? `HTTP ${outcome.statusCode}` }));
    }
    if (await health.failed(target, at)) {
      this.log(JSON.stringify({ event: "webhook_endpoint_disabled", endpoint: endpointId, account: target.accountId }));
    }
    return true;
  }
}
