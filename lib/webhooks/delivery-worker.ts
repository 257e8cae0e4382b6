import { randomUUID } from "node:crypto";
import type { EventType, StoredEvent } from "../alerts/alert-types.ts";
import type { EventStore } from "../alerts/event-store.ts";
import type { HostLookup } from "../net/guarded-agent.ts";
import type { ClaimedDelivery, DeliveryStore, Settlement } from "./delivery-store.ts";
import type { EndpointHealth } from "./endpoint-health.ts";
import type { DeliveryTarget, EndpointStore } from "./endpoint-store.ts";
import { webhookRequest } from "./payload.ts";
import { createWebhookPoster, type WebhookPoster } from "./post-webhook.ts";
import { countWebhookDelivery } from "../metrics/metrics.ts";
import { nextAttemptAt } from "./retry-schedule.ts";
import { logLine } from "../log/log.ts";

interface Recording {
  settlement: Settlement;
  target: DeliveryTarget;
  type: EventType;
  done: (recorded: boolean) => void;
}

const REFILL_DELAY_MS = 5;
const LEASE_MS = 60_000;
/** Writing a batch of outcomes is tried this often, this far apart: well within the lease. */
const RECORD_TRIES = 4;
const RECORD_RETRY_MS = 2_000;
const DAY_MS = 86_400_000;
const PRUNE_EVERY_MS = 3_600_000;
const PRUNE_BATCH = 500;

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
  /** POSTs in flight at once, at most this many to one endpoint, and to one account's endpoints (default half the pool). */
  concurrency?: number;
  perEndpoint?: number;
  perAccount?: number;
  /** Events older than this are removed, once an hour, with their deliveries and attempts (EVENT_RETENTION_DAYS). */
  retentionDays?: number;
  /** Events removed per statement. */
  pruneBatch?: number;
  /** Seams for tests (see post-webhook.ts). */
  lookup?: HostLookup;
  alsoPublic?: readonly string[];
}

/**
 * Delivers webhooks: claims due deliveries under a lease and POSTs them, many at once (a bounded pool, a few
 * per endpoint and at most half to one account, so slow endpoints hold only their own slots and their account's
 * share), retrying on Standard Webhooks' schedule. Once an hour it removes events past their retention.
 * kill -9 loses nothing: a claimed delivery stays pending and is due again when its lease ends; the claim
 * keeps any event from reaching one endpoint twice at once.
 */
export class DeliveryWorker {
  private readonly owner = randomUUID();
  private readonly poster: WebhookPoster;
  private readonly log: (line: string) => void;
  private readonly concurrency: number;
  private readonly perEndpoint: number;
  private readonly perAccount: number;
  /** Deliveries being attempted: each settles true when its attempt was recorded. */
  private readonly inFlight = new Map<string, Promise<boolean>>();
  private readonly endpointLoad = new Map<string, number>();
  private readonly accountLoad = new Map<string, number>();
  private prunedAt = -Infinity;
  private pruning: Promise<void> | null = null;
  /** Outcomes waiting to be written, and the writes so far (one at a time). */
  private recording: Recording[] = [];
  private recorded: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private refill: NodeJS.Timeout | null = null;
  private filling: Promise<void> | null = null;
  private fillAgain = false;
  /** The last look found deliveries due, or left busy endpoints out: more may be waiting once a slot frees. */
  private backlog = false;
  private stopped = true;

  constructor(private readonly options: DeliveryWorkerOptions) {
    this.log = options.log ?? logLine;
    this.concurrency = options.concurrency ?? 16;
    this.perEndpoint = options.perEndpoint ?? 4;
    this.perAccount = options.perAccount ?? Math.max(1, Math.floor(this.concurrency / 2));
    const timeoutMs = options.timeoutMs ?? 10_000;
    // A lease ending mid-POST would let another worker send the same event to the same endpoint at once.
    if ((options.leaseMs ?? LEASE_MS) <= timeoutMs) throw new Error("leaseMs must exceed timeoutMs");
    this.poster = createWebhookPoster({
      allowPrivateHosts: options.allowPrivateHosts,
      timeoutMs,
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
    if (this.refill) clearTimeout(this.refill);
    await this.filling;
    await this.pruning;
    await Promise.all(this.inFlight.values());
    await this.poster.close();
  }

  /** Starts what is due now, as far as the pool has room, and waits for it (and a prune due); answers how many were recorded. */
  async runOnce(): Promise<number> {
    await this.fill();
    await this.pruning;
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

  /** A slot freed while more was due: look again shortly, once others may have freed too (fewer, larger claims). */
  private refillSoon(): void {
    if (this.refill) return;
    this.refill = setTimeout(() => {
      this.refill = null;
      if (!this.stopped) this.wake();
    }, REFILL_DELAY_MS).unref();
  }

  /** Claims what is due, as far as the pool has room, and starts its POSTs. */
  private async fill(): Promise<void> {
    const { deliveries, endpoints, events, now } = this.options;
    if (!this.pruning && now() - this.prunedAt >= PRUNE_EVERY_MS) {
      this.prunedAt = now();
      this.pruning = this.prune(now() - (this.options.retentionDays ?? 30) * DAY_MS).finally(() => (this.pruning = null));
    }
    const room = this.concurrency - this.inFlight.size;
    if (room <= 0) {
      this.backlog = true;
      return;
    }
    const busyEndpoints = busy(this.endpointLoad, this.perEndpoint);
    const busyAccounts = busy(this.accountLoad, this.perAccount);
    const due = await deliveries.due(now(), room, { perEndpoint: this.perEndpoint, perAccount: this.perAccount, busyEndpoints, busyAccounts });
    // More may be due once slots free: what was found, or what the busy endpoints and accounts have waiting.
    this.backlog = due.length > 0 || busyEndpoints.length > 0 || busyAccounts.length > 0;
    const endpointLoad = new Map(this.endpointLoad);
    const accountLoad = new Map(this.accountLoad);
    const picked = due.filter(({ id, endpointId, accountId }) => {
      const n = endpointLoad.get(endpointId) ?? 0;
      const m = accountLoad.get(accountId) ?? 0;
      if (this.inFlight.has(id) || n >= this.perEndpoint || m >= this.perAccount) return false;
      endpointLoad.set(endpointId, n + 1);
      accountLoad.set(accountId, m + 1);
      return true;
    });
    const claimed = await deliveries.claim(picked.map((d) => d.id), this.owner, now(), this.options.leaseMs ?? LEASE_MS);
    if (claimed.length === 0) return;
    const [targets, stored] = await Promise.all([
      endpoints.deliveryTargets([...new Set(claimed.map((d) => d.endpointId))], now()),
      events.getMany(claimed.map((d) => d.eventId)),
    ]);
    for (const delivery of claimed) {
      const target = targets.get(delivery.endpointId);
      const event = stored.get(delivery.eventId);
      // Turned off since it was found due: it waits, pending, until its owner turns it on again.
      if (target?.enabled && event) this.begin(delivery, target, event);
    }
    // Room is left, and the endpoints and accounts that reached their share are busy now: the next look finds the others'.
    if (this.inFlight.size < this.concurrency) this.fillAgain = true;
  }

  private begin(delivery: ClaimedDelivery, target: DeliveryTarget, event: StoredEvent): void {
    const { id, endpointId } = delivery;
    const { accountId } = target;
    adjust(this.endpointLoad, endpointId, 1);
    adjust(this.accountLoad, accountId, 1);
    const attempt = this.attempt(delivery, target, event)
      .catch((error: unknown) => {
        // The delivery keeps its lease and is tried again once it ends.
        this.log(JSON.stringify({ event: "webhook_attempt_error", delivery: id, error: String(error) }));
        return false;
      })
      .finally(() => {
        this.inFlight.delete(id);
        adjust(this.endpointLoad, endpointId, -1);
        adjust(this.accountLoad, accountId, -1);
        if (this.backlog && !this.stopped) this.refillSoon();
      });
    this.inFlight.set(id, attempt);
  }

  /** Removes the events created before `before` (none with a pending delivery), a batch per statement. */
  private async prune(before: number): Promise<void> {
    const batch = this.options.pruneBatch ?? PRUNE_BATCH;
    try {
      let removed = 0;
      for (let n = batch; n === batch; removed += n) n = await this.options.events.prune(before, batch);
      if (removed > 0) this.log(JSON.stringify({ event: "events_pruned", removed, before: new Date(before).toISOString() }));
    } catch (error) {
      this.log(JSON.stringify({ event: "events_prune_error", error: String(error) }));
    }
  }

  /** One POST, recorded with its outcome; answers whether it was (not when the lease was lost meanwhile). */
  private async attempt(delivery: ClaimedDelivery, target: DeliveryTarget, event: StoredEvent): Promise<boolean> {
    const { now } = this.options;
    const outcome = await this.poster.post(target.url, webhookRequest(event, target.format, target.secrets, now()));
    const at = now();
    const settlement = { delivery, attempt: { ...outcome, nextAttemptAt: outcome.ok ? null : nextAttemptAt(delivery.attempts, at) }, at };
    return new Promise<boolean>((done) => {
      this.recording.push({ settlement, target, type: event.type, done });
      if (this.recording.length === 1) setImmediate(() => (this.recorded = this.recorded.then(() => this.record())));
    });
  }

  /**
   * Writes the outcomes that arrived meanwhile in one transaction (a commit per POST would bound the worker on
   * SQLite), then what they mean for their endpoints.
   */
  private async record(batch: Recording[] = this.recording.splice(0), tries = 1): Promise<void> {
    const { deliveries, health } = this.options;
    let settled = new Set<string>();
    try {
      settled = await deliveries.settle(this.owner, batch.map((b) => b.settlement));
      for (const { settlement } of batch) {
        if (settled.has(settlement.delivery.id)) countWebhookDelivery(settlement.attempt.ok ? "delivered" : "failed");
      }
      const ok = batch.filter((b) => settled.has(b.settlement.delivery.id) && b.settlement.attempt.ok);
      if (ok.length > 0) await health.succeeded([...new Set(ok.map((b) => b.target.id))], Math.max(...ok.map((b) => b.settlement.at)));
      for (const { settlement, target, type } of batch) {
        const { delivery, attempt, at } = settlement;
        if (!settled.has(delivery.id) || attempt.ok) continue;
        if (attempt.nextAttemptAt === null) {
          this.log(JSON.stringify({ event: "webhook_failed", delivery: delivery.id, endpoint: target.id, type, attempts: delivery.attempts, error: attempt.error }));
        }
        if (await health.failed(target, at)) this.log(JSON.stringify({ event: "webhook_endpoint_disabled", endpoint: target.id, account: target.accountId }));
      }
    } catch (error) {
      this.log(JSON.stringify({ event: "webhook_record_error", deliveries: batch.length, tries, error: String(error) }));
      // A busy database: try again while the leases last, rather than leave sent deliveries to be sent again.
      if (settled.size === 0 && tries < RECORD_TRIES) {
        await new Promise((resolve) => setTimeout(resolve, RECORD_RETRY_MS));
        return this.record(batch, tries + 1);
      }
    }
    for (const { settlement, done } of batch) done(settled.has(settlement.delivery.id));
  }
}

/** The keys whose load reached `share`. */
const busy = (load: Map<string, number>, share: number): string[] => [...load].filter(([, n]) => n >= share).map(([key]) => key);

function adjust(load: Map<string, number>, key: string, by: number): void {
  const n = (load.get(key) ?? 0) + by;
  if (n <= 0) load.delete(key);
  else load.set(key, n);
}
