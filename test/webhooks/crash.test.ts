import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, killAll, startChild, until, type Child } from "../support/processes.ts";
import { sqliteStoreDatabase, type StoreDatabase } from "../support/stores.ts";
import { startWebhookReceiver, verifyWebhook, type WebhookReceiver } from "../support/webhook-receiver.ts";
import { webhookFixture } from "../support/webhooks.ts";

/*
 * kill -9 of a worker process in the middle of a POST loses nothing and sends nothing twice at once: the real
 * `start:worker` process holds the delivery's lease while the receiver holds its request unanswered, dies, and
 * once the lease ends another worker delivers the event, once, with the same webhook-id.
 */
const SECRET = "crash-test-secret-0123456789abcdef0123456789";

describe("webhook delivery across a kill -9", { timeout: 60_000 }, () => {
  const children: Child[] = [];
  let db: StoreDatabase;
  let receiver: WebhookReceiver;
  const hooks = webhookFixture(() => db, Date.now, Buffer.from(SECRET, "utf8"));

  beforeAll(async () => {
    db = await sqliteStoreDatabase();
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await killAll(children);
    await hooks.stopWorkers();
    await receiver.close();
    await db.drop();
  });

  it("a delivery in flight when its worker is killed is delivered once, by the next worker, after the lease", async () => {
    const account = await hooks.account();
    const endpoint = await hooks.endpoint(account.id, receiver.url("/held"));
    receiver.answer("/held", "hold");
    const event = await hooks.emit(account.id);
    const worker = startChild("worker", "start/worker.ts", {
      ...process.env,
      PORT: String(await freePort()),
      HOST: "127.0.0.1",
      DATABASE_URL: db.url,
      SHARECOUNT_SECRET: SECRET,
      SHARECOUNT_NETWORKS: "sandbox",
      SANDBOX_PORT: String(await freePort()),
      WEBHOOK_ALLOW_PRIVATE_HOSTS: "true",
    });
    children.push(worker);
    await until("the worker to be delivering the event", async () => receiver.holding, (holding) => holding === 1, 30_000, [worker]);
    worker.process.kill("SIGKILL");
    await worker.exited;

    const held = await db.prisma.webhookDelivery.findFirstOrThrow({ where: { eventId: event.id } });
    expect(held).toMatchObject({ status: "pending", attempts: 1 });
    expect(held.leaseOwner).not.toBeNull();
    expect(await db.prisma.webhookAttempt.count({ where: { deliveryId: held.id } })).toBe(0);

    receiver.answer("/held", { status: 204 });
    // While the dead worker's lease lasts, nobody takes the delivery over.
    expect(await hooks.worker({ now: Date.now }).runOnce()).toBe(0);
    const afterLease = hooks.worker({ now: () => held.dueAt.getTime() });
    expect(await afterLease.runOnce()).toBe(1);
    expect(await afterLease.runOnce()).toBe(0);

    const requests = receiver.at("/held");
    expect(requests).toHaveLength(2);
    expect(requests.map((r) => r.headers["webhook-id"])).toEqual([event.id, event.id]);
    expect(verifyWebhook(requests[1]!, endpoint.secret, held.dueAt.getTime())).toMatchObject({ type: "bulk.completed" });
    expect(await db.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: held.id } })).toMatchObject({ status: "succeeded", attempts: 2, leaseOwner: null });
    const log = await hooks.kit.deliveries.attempts(endpoint.id, 10);
    expect(log).toMatchObject([{ attempt: 2, ok: true, statusCode: 204 }]);
  });
});
