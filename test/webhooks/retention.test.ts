import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { postgresSkipReason, postgresStoreDatabase, sqliteStoreDatabase, type StoreDatabase } from "../support/stores.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.ts";
import { webhookFixture } from "../support/webhooks.ts";

/** Events past EVENT_RETENTION_DAYS go, with their deliveries and attempts, on both databases; the clock is the test's. */
const skipPostgres = (await postgresSkipReason("test/webhooks/retention.test.ts")) !== undefined;
const drivers = [
  { name: "SQLite", database: sqliteStoreDatabase, skip: false },
  { name: "PostgreSQL", database: postgresStoreDatabase, skip: skipPostgres },
];

const T0 = Date.UTC(2026, 10, 27, 9);
const DAY_MS = 86_400_000;

describe.each(drivers)("event retention on $name", ({ database, skip }) => {
  let db: StoreDatabase;
  let receiver: WebhookReceiver;
  let clock = T0;
  const hooks = webhookFixture(() => db, () => clock);

  beforeAll(async () => {
    if (skip) return;
    db = await database();
    receiver = await startWebhookReceiver();
  });
  afterEach(() => hooks.stopWorkers());
  afterAll(async () => {
    await receiver?.close();
    await db?.drop();
  });

  it.skipIf(skip)("removes events older than the retention, once an hour and a batch at a time, but never one with a delivery pending", async () => {
    const account = await hooks.account();
    const endpoint = await hooks.endpoint(account.id, receiver.url("/kept"));
    const paused = await hooks.endpoint(account.id, receiver.url("/paused"), { events: ["quota.warning"] });
    const old = [];
    for (let i = 0; i < 3; i++) old.push(await hooks.emit(account.id));
    const pending = await hooks.emit(account.id, "quota.warning", { used: 80, quota: 100, day: "2026-11-27" });
    // Turned off by its owner: the delivery waits, pending, until it is turned on again.
    await hooks.kit.endpoints.update(account.id, paused.id, { enabled: false });
    const worker = hooks.worker({ retentionDays: 30, pruneBatch: 2 });
    expect(await worker.runOnce()).toBe(3);
    clock = T0 + 30 * 60_000;
    const later = await hooks.emit(account.id);
    expect(await worker.runOnce()).toBe(1);
    const ids = async () => (await db.prisma.alertEvent.findMany({ where: { accountId: account.id }, select: { id: true } })).map((e) => e.id).sort();
    const attempts = () => db.prisma.webhookAttempt.count({ where: { endpointId: endpoint.id } });
    expect(await attempts()).toBe(4);

    clock = T0 + 30 * DAY_MS + 1;
    const recent = await hooks.emit(account.id);
    expect(await worker.runOnce()).toBe(1);
    // The three old events went (two per statement) with their deliveries and attempts; the pending one stays.
    expect(await ids()).toEqual([pending.id, later.id, recent.id].sort());
    expect(await db.prisma.webhookDelivery.count({ where: { eventId: { in: old.map((e) => e.id) } } })).toBe(0);
    expect(await attempts()).toBe(2);
    expect(await db.prisma.webhookDelivery.findFirstOrThrow({ where: { eventId: pending.id } })).toMatchObject({ status: "pending", endpointId: paused.id });

    // `later` is past the retention now, but the worker looks only once an hour.
    clock = T0 + 30 * DAY_MS + 30 * 60_000 + 1;
    await worker.runOnce();
    expect(await ids()).toContain(later.id);
    clock = T0 + 30 * DAY_MS + 3_600_000 + 1;
    await worker.runOnce();
    expect(await ids()).toEqual([pending.id, recent.id].sort());
    expect(await attempts()).toBe(1);

    // Once its delivery is given up, the next hourly look removes it.
    await hooks.kit.deliveries.abandon(paused.id);
    clock += 3_600_000;
    await worker.runOnce();
    expect(await ids()).toEqual([recent.id]);
  });
});
