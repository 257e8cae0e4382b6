import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { mailSettings } from "../../lib/mail/mail-env.ts";
import { MailWorker } from "../../lib/mail/mail-worker.ts";
import { openOutbox } from "../../lib/mail/outbox.ts";
import { OutboxStore } from "../../lib/mail/outbox-store.ts";
import { createMailTransport } from "../../lib/mail/transport.ts";
import { addressesOf, linkIn, startSmtpServer, type TestSmtpServer } from "../support/smtp.ts";
import { postgresSkipReason, postgresStoreDatabase, sqliteStoreDatabase, type StoreDatabase } from "../support/stores.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.ts";
import { WEBHOOK_ORIGIN, webhookFixture } from "../support/webhooks.ts";

/** Five days of failures with no success turn an endpoint off and mail its owner; the clock is the test's. */
const skipPostgres = (await postgresSkipReason("test/webhooks/disable.test.ts")) !== undefined;
const drivers = [
  { name: "SQLite", database: sqliteStoreDatabase, skip: false },
  { name: "PostgreSQL", database: postgresStoreDatabase, skip: skipPostgres },
];

const T0 = Date.UTC(2026, 10, 27, 9);
const DAY = 24 * 3600_000;

describe.each(drivers)("endpoint disablement on $name", ({ database, skip }) => {
  let db: StoreDatabase;
  let receiver: WebhookReceiver;
  let smtp: TestSmtpServer;
  let clock = T0;
  const hooks = webhookFixture(() => db, () => clock);
  const mailWorker = () =>
    new MailWorker({
      store: new OutboxStore(db.prisma),
      outbox: openOutbox(db.prisma, hooks.secret),
      transport: createMailTransport(mailSettings({ SMTP_URL: smtp.url, MAIL_DIR: "unused", SHARECOUNT_PUBLIC_URL: WEBHOOK_ORIGIN, PORT: 3000 })),
      origin: WEBHOOK_ORIGIN,
      now: () => clock,
      log: () => {},
    });

  beforeAll(async () => {
    if (skip) return;
    db = await database();
    receiver = await startWebhookReceiver();
    smtp = await startSmtpServer();
  });
  afterEach(async () => {
    await hooks.stopWorkers();
    await db?.prisma.webhookDelivery.updateMany({ where: { status: "pending" }, data: { status: "failed" } });
  });
  afterAll(async () => {
    await receiver?.close();
    await smtp?.close();
    await db?.drop();
  });

  it.skipIf(skip)("turns the endpoint off after 5 days without a success, gives up its pending deliveries and mails its owner once", async () => {
    clock = T0;
    const account = await hooks.account();
    const endpoint = await hooks.endpoint(account.id, receiver.url("/broken"));
    receiver.answer("/broken", { status: 500 });
    const worker = hooks.worker();
    const first = await hooks.emit(account.id);
    expect(await worker.runOnce()).toBe(1);
    expect(await hooks.kit.endpoints.get(account.id, endpoint.id)).toMatchObject({ enabled: true, failingSince: T0, lastSuccessAt: null });

    // A millisecond short of five days: still on.
    clock = T0 + 5 * DAY - 1;
    await hooks.emit(account.id);
    expect(await worker.runOnce()).toBe(2);
    expect(await hooks.kit.endpoints.get(account.id, endpoint.id)).toMatchObject({ enabled: true, disabledReason: null });

    clock = T0 + 5 * DAY;
    const last = await hooks.emit(account.id);
    expect(await worker.runOnce()).toBe(1);
    const off = await hooks.kit.endpoints.get(account.id, endpoint.id);
    expect(off).toMatchObject({ enabled: false, disabledReason: `No delivery succeeded for 5 days (failing since ${new Date(T0).toISOString()}).` });
    const deliveries = await db.prisma.webhookDelivery.findMany({ where: { endpointId: endpoint.id } });
    expect(deliveries.map((d) => d.status)).toEqual(["failed", "failed", "failed"]);
    expect(deliveries.find((d) => d.eventId === first.id)?.attempts).toBe(2);
    expect(deliveries.find((d) => d.eventId === last.id)?.attempts).toBe(1);

    // Nothing more goes out to it, and no new event is queued for it.
    clock += DAY;
    await hooks.emit(account.id);
    expect(await worker.runOnce()).toBe(0);
    expect(await db.prisma.webhookDelivery.count({ where: { endpointId: endpoint.id } })).toBe(3);

    expect(await mailWorker().runOnce()).toBe(1);
    const mail = await smtp.waitFor((m) => addressesOf(m).includes(account.email));
    expect(mail.subject).toBe("A sharecount webhook endpoint was turned off");
    expect(mail.text).toContain(receiver.url("/broken"));
    expect(linkIn(mail, `${WEBHOOK_ORIGIN}/dashboard/alerts`)).toBe(`${WEBHOOK_ORIGIN}/dashboard/alerts`);
    expect(smtp.messages.filter((m) => addressesOf(m).includes(account.email))).toHaveLength(1);
  });

  it.skipIf(skip)("counts the five days from the first failure after the last success", async () => {
    clock = T0;
    const account = await hooks.account();
    const endpoint = await hooks.endpoint(account.id, receiver.url("/flaky"));
    const worker = hooks.worker();
    receiver.answer("/flaky", { status: 500 });
    await hooks.emit(account.id);
    expect(await worker.runOnce()).toBe(1);
    clock = T0 + 3 * DAY;
    receiver.answer("/flaky", { status: 200 });
    await hooks.emit(account.id);
    // The retry of the first event and the new one both succeed.
    expect(await worker.runOnce()).toBe(2);
    expect(await hooks.kit.endpoints.get(account.id, endpoint.id)).toMatchObject({ failingSince: null, lastSuccessAt: T0 + 3 * DAY });

    receiver.answer("/flaky", { status: 500 });
    clock = T0 + 4 * DAY;
    await hooks.emit(account.id);
    expect(await worker.runOnce()).toBe(1);
    clock = T0 + 6 * DAY;
    await hooks.emit(account.id);
    await worker.runOnce();
    expect(await hooks.kit.endpoints.get(account.id, endpoint.id)).toMatchObject({ enabled: true, failingSince: T0 + 4 * DAY });
  });

  it.skipIf(skip)("mails no address its owner has not confirmed", async () => {
    clock = T0;
    const account = await hooks.account({ verified: false });
    const endpoint = await hooks.endpoint(account.id, receiver.url("/unconfirmed"));
    receiver.answer("/unconfirmed", { status: 404 });
    const worker = hooks.worker();
    await hooks.emit(account.id);
    await worker.runOnce();
    clock = T0 + 5 * DAY;
    await hooks.emit(account.id);
    await worker.runOnce();
    expect(await hooks.kit.endpoints.get(account.id, endpoint.id)).toMatchObject({ enabled: false });
    expect(await db.prisma.mailMessage.count({ where: { accountId: account.id } })).toBe(0);
  });
});
