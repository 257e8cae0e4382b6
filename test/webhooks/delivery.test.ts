import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { USER_AGENT } from "../../lib/webhooks/payload.ts";
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from "../../lib/webhooks/retry-schedule.ts";
import { postgresSkipReason, postgresStoreDatabase, sqliteStoreDatabase, type StoreDatabase } from "../support/stores.ts";
import { startWebhookReceiver, verifyWebhook, type WebhookReceiver } from "../support/webhook-receiver.ts";
import { BULK_DONE, webhookFixture } from "../support/webhooks.ts";

/** Webhook delivery on both databases, to a real receiver on loopback; the clock is the test's. */
const skipPostgres = (await postgresSkipReason("test/webhooks/delivery.test.ts")) !== undefined;
const drivers = [
  { name: "SQLite", database: sqliteStoreDatabase, skip: false },
  { name: "PostgreSQL", database: postgresStoreDatabase, skip: skipPostgres },
];

const T0 = Date.UTC(2026, 10, 27, 9);

describe.each(drivers)("webhook delivery on $name", ({ database, skip }) => {
  let db: StoreDatabase;
  let receiver: WebhookReceiver;
  let clock = T0;
  const hooks = webhookFixture(() => db, () => clock);
  const deliveryOf = (eventId: string) => db.prisma.webhookDelivery.findFirstOrThrow({ where: { eventId } });

  beforeAll(async () => {
    if (skip) return;
    db = await database();
    receiver = await startWebhookReceiver();
  });
  afterEach(async () => {
    receiver?.release();
    await hooks.stopWorkers();
    // What a test left pending must not come due in the next one, whose clock moves on.
    await db?.prisma.webhookDelivery.updateMany({ where: { status: "pending" }, data: { status: "failed" } });
  });
  afterAll(async () => {
    await receiver?.close();
    await db?.drop();
  });

  it.skipIf(skip)("POSTs the event signed per Standard Webhooks, with the body every channel shares, and logs the attempt", async () => {
    const account = await hooks.account();
    const endpoint = await hooks.endpoint(account.id, receiver.url("/signed"));
    const event = await hooks.emit(account.id);
    expect(await hooks.worker().runOnce()).toBe(1);

    const [request] = await receiver.waitFor("/signed");
    expect(request!.method).toBe("POST");
    expect(request!.headers).toMatchObject({
      "content-type": "application/json",
      "user-agent": USER_AGENT,
      "webhook-id": event.id,
      "webhook-timestamp": String(T0 / 1000),
    });
    expect(request!.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(verifyWebhook(request!, endpoint.secret, clock)).toEqual({ type: "bulk.completed", timestamp: new Date(T0).toISOString(), data: BULK_DONE });
    expect(() => verifyWebhook(request!, "whsec_" + Buffer.alloc(24, 1).toString("base64"), clock)).toThrow("No matching signature");
    // Five minutes later the package refuses the same request as a replay.
    expect(() => verifyWebhook(request!, endpoint.secret, clock + 301_000)).toThrow("too old");

    expect(await deliveryOf(event.id)).toMatchObject({ status: "succeeded", attempts: 1, leaseOwner: null });
    const [attempt] = await hooks.kit.deliveries.attempts(endpoint.id, 10);
    expect(attempt).toMatchObject({ eventId: event.id, type: "bulk.completed", attempt: 1, statusCode: 204, ok: true, error: null, createdAt: T0, nextAttemptAt: null });
    const healthy = await hooks.kit.endpoints.get(account.id, endpoint.id);
    expect(healthy).toMatchObject({ lastSuccessAt: T0, failingSince: null });
  });

  it.skipIf(skip)("a busy database when the outcome is written: it is written on a later try, and the event is sent once", async () => {
    const account = await hooks.account();
    await hooks.endpoint(account.id, receiver.url("/busy"));
    const event = await hooks.emit(account.id);
    const store = hooks.kit.deliveries;
    let failures = 1;
    const deliveries = Object.assign(Object.create(store) as typeof store, {
      settle: (...args: Parameters<typeof store.settle>) => (failures-- > 0 ? Promise.reject(new Error("database is locked")) : store.settle(...args)),
    });
    expect(await hooks.worker({ deliveries }).runOnce()).toBe(1);
    expect(await receiver.waitFor("/busy")).toHaveLength(1);
    expect(await deliveryOf(event.id)).toMatchObject({ status: "succeeded", attempts: 1, leaseOwner: null });
  });

  it.skipIf(skip)("sends Slack and Discord a readable line, unsigned", async () => {
    const account = await hooks.account();
    await hooks.endpoint(account.id, receiver.url("/slack"), { format: "slack" });
    await hooks.endpoint(account.id, receiver.url("/discord"), { format: "discord" });
    await hooks.emit(account.id);
    expect(await hooks.worker().runOnce()).toBe(2);
    const line = "Bulk job b_123 finished: 980 of 1,000 URLs counted, 20 failed, 1,000 queries spent";
    const [slack] = await receiver.waitFor("/slack");
    const [discord] = await receiver.waitFor("/discord");
    expect(JSON.parse(slack!.body)).toEqual({ text: line });
    expect(JSON.parse(discord!.body)).toEqual({ content: line, allowed_mentions: { parse: [] } });
    for (const request of [slack!, discord!]) {
      expect(request.headers["content-type"]).toBe("application/json");
      expect(request.headers["webhook-signature"]).toBeUndefined();
      expect(request.headers["webhook-id"]).toBeUndefined();
    }
  });

  it.skipIf(skip)("retries a failure on Standard Webhooks' schedule with the same webhook-id, and gives up after the 8th attempt", async () => {
    const account = await hooks.account();
    const endpoint = await hooks.endpoint(account.id, receiver.url("/down"));
    receiver.answer("/down", { status: 503 });
    const event = await hooks.emit(account.id);
    const worker = hooks.worker();
    const start = clock;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      expect(await worker.runOnce()).toBe(1);
      // Nothing is due before the next step of the schedule.
      expect(await worker.runOnce()).toBe(0);
      const delay = RETRY_DELAYS_MS[attempt - 1];
      if (delay !== undefined) {
        clock += delay - 1;
        expect(await worker.runOnce()).toBe(0);
        clock += 1;
      }
    }
    const requests = receiver.at("/down");
    expect(requests).toHaveLength(8);
    expect(new Set(requests.map((r) => r.headers["webhook-id"]))).toEqual(new Set([event.id]));
    const offsets = [0, 5, 305, 2105, 9305, 27305, 63305, 99305].map((s) => String((start + s * 1000) / 1000));
    expect(requests.map((r) => r.headers["webhook-timestamp"])).toEqual(offsets);
    // Each attempt is signed at its own time.
    requests.forEach((request, i) => expect(verifyWebhook(request, endpoint.secret, Number(offsets[i]) * 1000)).toMatchObject({ type: "bulk.completed" }));

    expect(await deliveryOf(event.id)).toMatchObject({ status: "failed", attempts: 8 });
    const log = await hooks.kit.deliveries.attempts(endpoint.id, 10);
    expect(log.map((a) => a.attempt)).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
    expect(log.every((a) => a.statusCode === 503 && !a.ok && a.error === "HTTP 503")).toBe(true);
    expect(log[0]!.nextAttemptAt).toBeNull();
    expect(log[7]!.nextAttemptAt).toBe(start + 5_000);
    expect(await worker.runOnce()).toBe(0);
  });

  it.skipIf(skip)("counts a redirect as a failure and does not follow it", async () => {
    const account = await hooks.account();
    await hooks.endpoint(account.id, receiver.url("/moved"));
    receiver.answer("/moved", { status: 301, location: receiver.url("/elsewhere") });
    const event = await hooks.emit(account.id);
    expect(await hooks.worker().runOnce()).toBe(1);
    expect(receiver.at("/moved")).toHaveLength(1);
    expect(receiver.at("/elsewhere")).toHaveLength(0);
    const delivery = await deliveryOf(event.id);
    expect(delivery).toMatchObject({ status: "pending", attempts: 1 });
    expect(delivery.dueAt.getTime()).toBe(clock + 5_000);
    const [attempt] = await db.prisma.webhookAttempt.findMany({ where: { deliveryId: delivery.id } });
    expect(attempt).toMatchObject({ statusCode: 301, ok: false, error: `HTTP 301: redirects are not followed (Location: ${receiver.url("/elsewhere")})` });
  });

  it.skipIf(skip)("gives up a POST that gets no answer within the timeout, and tries again later", async () => {
    const account = await hooks.account();
    await hooks.endpoint(account.id, receiver.url("/slow"));
    receiver.answer("/slow", { status: 200, delayMs: 5_000 });
    const event = await hooks.emit(account.id);
    expect(await hooks.worker({ timeoutMs: 300 }).runOnce()).toBe(1);
    const delivery = await deliveryOf(event.id);
    expect(delivery).toMatchObject({ status: "pending", attempts: 1 });
    const [attempt] = await db.prisma.webhookAttempt.findMany({ where: { deliveryId: delivery.id } });
    expect(attempt).toMatchObject({ statusCode: null, ok: false, error: "no answer within 0.3 s" });
    expect(attempt!.durationMs).toBeGreaterThanOrEqual(290);
    expect(attempt!.durationMs).toBeLessThan(3_000);
  });

  it.skipIf(skip)("signs with both secrets for 24 hours after a roll: a receiver holding either verifies", async () => {
    const account = await hooks.account();
    const endpoint = await hooks.endpoint(account.id, receiver.url("/rolled"));
    const rolled = await hooks.kit.endpoints.rollSecret(account.id, endpoint.id, clock + 24 * 3600_000);
    expect(rolled).not.toBeNull();
    await hooks.emit(account.id);
    const worker = hooks.worker();
    expect(await worker.runOnce()).toBe(1);
    const [during] = await receiver.waitFor("/rolled");
    expect((during!.headers["webhook-signature"] as string).split(" ")).toHaveLength(2);
    expect(verifyWebhook(during!, rolled!, clock)).toMatchObject({ type: "bulk.completed" });
    expect(verifyWebhook(during!, endpoint.secret, clock)).toMatchObject({ type: "bulk.completed" });

    clock += 24 * 3600_000;
    await hooks.emit(account.id);
    expect(await worker.runOnce()).toBe(1);
    const after = (await receiver.waitFor("/rolled", 2))[1]!;
    expect((after.headers["webhook-signature"] as string).split(" ")).toHaveLength(1);
    expect(verifyWebhook(after, rolled!, clock)).toMatchObject({ type: "bulk.completed" });
    expect(() => new Webhook(endpoint.secret).verify(after.body, after.headers as Record<string, string>)).toThrow();
  });

  it.skipIf(skip)("a slow endpoint does not hold up another's deliveries", async () => {
    const account = await hooks.account();
    await hooks.endpoint(account.id, receiver.url("/stuck"));
    const other = await hooks.account();
    await hooks.endpoint(other.id, receiver.url("/quick"));
    receiver.answer("/stuck", "hold");
    for (let i = 0; i < 10; i++) await hooks.emit(account.id);
    const worker = hooks.worker({ timeoutMs: 20_000, pollMs: 50, concurrency: 8, perEndpoint: 3 });
    worker.start();
    await receiver.waitFor("/stuck", 3);
    await hooks.emit(other.id);
    worker.notify();
    await receiver.waitFor("/quick", 1, 5_000);
    // The stuck endpoint holds its three slots and no more.
    expect(receiver.at("/stuck")).toHaveLength(3);
  });

  it.skipIf(skip)("an account's slow endpoints hold at most half the pool: another account's delivery starts within a poll", async () => {
    const busy = await hooks.account();
    const paths = Array.from({ length: 6 }, (_, i) => `/hanging-${i}`);
    for (const path of paths) {
      await hooks.endpoint(busy.id, receiver.url(path));
      receiver.answer(path, "hold");
    }
    for (let i = 0; i < 25; i++) await hooks.emit(busy.id);
    const other = await hooks.account();
    await hooks.endpoint(other.id, receiver.url("/prompt"));
    const worker = hooks.worker({ timeoutMs: 20_000, pollMs: 100 });
    worker.start();
    const deadline = Date.now() + 5_000;
    while (receiver.holding < 8 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    clock += 1;
    await hooks.emit(other.id);
    // No notify: the next poll finds it although the busy account's 150 deliveries are older.
    await receiver.waitFor("/prompt", 1, 3_000);
    // Sixteen slots, four per endpoint: the busy account holds its eight and no more.
    expect(receiver.holding).toBe(8);
  });
});
