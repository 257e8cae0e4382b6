import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAIL_KEPT_MS, MailWorker, retryDelayMs } from "../../lib/mail/mail-worker.ts";
import { mailSettings } from "../../lib/mail/mail-env.ts";
import { MAIL_VAULT_PURPOSE, Outbox } from "../../lib/mail/outbox.ts";
import { OutboxStore } from "../../lib/mail/outbox-store.ts";
import { createMailTransport } from "../../lib/mail/transport.ts";
import { KeyVault } from "../../lib/security/secrets.ts";
import { freePort } from "../support/processes.ts";
import { addressesOf, linkIn, startSmtpServer, type TestSmtpServer } from "../support/smtp.ts";
import { postgresSkipReason, postgresStoreDatabase, sqliteStoreDatabase, type StoreDatabase } from "../support/stores.ts";

/** The outbox on both databases, delivering to a real SMTP server on loopback; the clock is the test's. */
const skipPostgres = (await postgresSkipReason("test/mail/outbox.test.ts")) !== undefined;
const drivers = [
  { name: "SQLite", database: sqliteStoreDatabase, skip: false },
  { name: "PostgreSQL", database: postgresStoreDatabase, skip: skipPostgres },
];

const T0 = Date.UTC(2026, 2, 1, 9);
const ORIGIN = "https://sharecount.example.com";
const secret = randomBytes(32);

describe.each(drivers)("the outbox on $name", ({ database, skip }) => {
  let db: StoreDatabase;
  let smtp: TestSmtpServer;
  let clock = T0;
  const logs: string[] = [];
  const outbox = () => new Outbox(new OutboxStore(db.prisma), new KeyVault(secret, MAIL_VAULT_PURPOSE));
  const worker = (smtpUrl: string | null, options: { leaseMs?: number } = {}) =>
    new MailWorker({
      store: new OutboxStore(db.prisma),
      outbox: outbox(),
      transport: createMailTransport(mailSettings({ SMTP_URL: smtpUrl ?? undefined, MAIL_DIR: "unused", SHARECOUNT_PUBLIC_URL: ORIGIN, PORT: 3000 })),
      origin: ORIGIN,
      now: () => clock,
      log: (line) => logs.push(line),
      ...options,
    });
  const reset = (to: string, token = "t0k3n") =>
    outbox().queue(db.prisma, { kind: "password_reset", to, accountId: null, data: { link: `${ORIGIN}/reset-password?token=${token}`, minutes: 60 } }, clock);
  const row = (id: string) => db.prisma.mailMessage.findUniqueOrThrow({ where: { id } });

  beforeAll(async () => {
    if (skip) return;
    db = await database();
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    await smtp?.close();
    await db?.drop();
  });

  it.skipIf(skip)("sends a queued mail with HTML and text parts, its link in both, and the headers a mail client needs", async () => {
    const id = await outbox().queue(
      db.prisma,
      { kind: "password_changed", to: "notice@example.com", accountId: null, data: { when: "on 1 March 2026 at 09:00 UTC", link: `${ORIGIN}/forgot-password` } },
      clock,
    );
    await reset("reset@example.com");
    expect(await worker(smtp.url).runOnce()).toBe(2);

    const notice = await smtp.waitFor((m) => addressesOf(m).includes("notice@example.com"));
    expect(notice.from?.text).toBe('"sharecount" <no-reply@sharecount.example.com>');
    expect(notice.subject).toBe("Your sharecount password was changed");
    expect(notice.messageId).toBe(`<${id}@sharecount.example.com>`);
    expect(notice.date?.getTime()).toBe(T0);
    expect(notice.headers.get("auto-submitted")).toBe("auto-generated");
    for (const part of [notice.text ?? "", String(notice.html)]) {
      expect(part).toContain("sharecount");
      expect(part).toContain(`${ORIGIN}/forgot-password`);
    }

    const mail = await smtp.waitFor((m) => addressesOf(m).includes("reset@example.com"));
    expect(linkIn(mail, `${ORIGIN}/reset-password`)).toBe(`${ORIGIN}/reset-password?token=t0k3n`);
    expect(String(mail.html)).toContain(`${ORIGIN}/reset-password?token=t0k3n`);
    // Answers to a request are not notices.
    expect(mail.headers.get("auto-submitted")).toBeUndefined();

    const sent = await row(id);
    expect(sent).toMatchObject({ status: "sent", attempts: 1, payload: null, leaseOwner: null, lastError: null });
    expect(sent.sentAt?.getTime()).toBe(T0);
  });

  it.skipIf(skip)("keeps the link sealed in the row until it is sent", async () => {
    const id = await reset("sealed@example.com", "secret-token-in-a-link");
    const queued = await row(id);
    expect(queued.payload).not.toBeNull();
    expect(queued.payload).not.toContain("secret-token-in-a-link");
    expect(JSON.stringify(queued)).not.toContain("secret-token-in-a-link");
    await worker(smtp.url).runOnce();
    expect((await row(id)).payload).toBeNull();
  });

  it.skipIf(skip)("retries a refused mail with backoff and sends it once the server accepts", async () => {
    const id = await reset("refused@example.com");
    smtp.refuseWith = { code: 451, message: "Try again later" };
    const first = worker(smtp.url);
    await first.runOnce();
    let pending = await row(id);
    expect(pending).toMatchObject({ status: "pending", attempts: 1, leaseOwner: null });
    expect(pending.lastError).toMatch(/^SMTP 451/);
    expect(pending.dueAt.getTime()).toBe(clock + retryDelayMs(1));
    // Not due yet: nothing is tried.
    clock += retryDelayMs(1) - 1;
    expect(await first.runOnce()).toBe(0);

    smtp.refuseWith = { code: 554, message: "Transaction failed" };
    clock += 1;
    await first.runOnce();
    pending = await row(id);
    expect(pending).toMatchObject({ status: "pending", attempts: 2 });
    expect(pending.lastError).toMatch(/^SMTP 554/);
    expect(pending.dueAt.getTime()).toBe(clock + retryDelayMs(2));

    smtp.refuseWith = null;
    clock += retryDelayMs(2);
    await first.runOnce();
    expect(await row(id)).toMatchObject({ status: "sent", attempts: 3 });
    expect(smtp.messages.filter((m) => addressesOf(m).includes("refused@example.com"))).toHaveLength(1);
  });

  it.skipIf(skip)("a server that is down, then up again: the mail arrives", async () => {
    const port = await freePort();
    const id = await reset("down@example.com");
    const sender = worker(`smtp://127.0.0.1:${port}`);
    await sender.runOnce();
    const pending = await row(id);
    expect(pending.status).toBe("pending");
    expect(pending.lastError).toMatch(/ECONNECTION|ECONNREFUSED/);

    const later = await startSmtpServer(port);
    try {
      clock += retryDelayMs(1);
      await sender.runOnce();
      expect((await later.waitFor((m) => addressesOf(m).includes("down@example.com"))).subject).toMatch(/Reset your sharecount password/);
      expect((await row(id)).status).toBe("sent");
    } finally {
      await later.close();
    }
  });

  it.skipIf(skip)("gives up after a day, marks the mail failed and logs it", async () => {
    const port = await freePort();
    const id = await reset("never@example.com");
    const sender = worker(`smtp://127.0.0.1:${port}`);
    const queuedAt = clock;
    let attempts = 0;
    while ((await row(id)).status === "pending") {
      clock = (await row(id)).dueAt.getTime();
      await sender.runOnce();
      attempts++;
    }
    const failed = await row(id);
    expect(failed).toMatchObject({ status: "failed", payload: null });
    expect(clock - queuedAt).toBeLessThanOrEqual(24 * 3600_000);
    expect(clock - queuedAt).toBeGreaterThan(23 * 3600_000);
    // Backoff, not a storm: about one attempt an hour once the delay reaches its cap.
    expect(attempts).toBeGreaterThan(20);
    expect(attempts).toBeLessThan(40);
    expect(logs.map((l) => JSON.parse(l))).toContainEqual(expect.objectContaining({ event: "mail_failed", id, to: "never@example.com" }));
  });

  it.skipIf(skip)("two workers at once send each mail once", async () => {
    const addresses = Array.from({ length: 12 }, (_, i) => `race-${i}@example.com`);
    for (const to of addresses) await reset(to);
    const workers = [worker(smtp.url), worker(smtp.url), worker(smtp.url)];
    await Promise.all(workers.map((w) => w.runOnce(50)));
    for (const to of addresses) {
      expect(smtp.messages.filter((m) => addressesOf(m).includes(to)), to).toHaveLength(1);
    }
  });

  it.skipIf(skip)("a mail held by a worker that died is taken over when its lease ends, not before", async () => {
    const id = await reset("orphan@example.com");
    // Claimed by a worker that never settles it (killed after claiming).
    const store = new OutboxStore(db.prisma);
    expect(await store.claim(id, "dead-worker", clock, 120_000)).not.toBeNull();
    const survivor = worker(smtp.url);
    expect(await survivor.runOnce()).toBe(0);
    clock += 120_000;
    expect(await survivor.runOnce()).toBe(1);
    expect(await row(id)).toMatchObject({ status: "sent", attempts: 2 });
    // The dead worker's late settlement changes nothing.
    expect(await store.sent(id, "dead-worker", clock)).toBe(false);
  });

  it.skipIf(skip)("removes sent and failed mail after 30 days, never pending mail", async () => {
    const sent = await reset("kept@example.com");
    await worker(smtp.url).runOnce();
    const failed = await new OutboxStore(db.prisma).insert(db.prisma, { accountId: null, kind: "password_reset", recipient: "x@example.com", payload: "v1:bad" }, clock);
    await worker(smtp.url).runOnce();
    const pending = await reset("pending@example.com");
    await db.prisma.mailMessage.update({ where: { id: pending }, data: { dueAt: new Date(clock + 10 * MAIL_KEPT_MS) } });
    clock += MAIL_KEPT_MS;
    await worker(smtp.url).runOnce();
    expect(await db.prisma.mailMessage.count({ where: { id: { in: [sent, failed, pending] } } })).toBe(3);
    clock += 1;
    await worker(smtp.url).runOnce();
    expect((await db.prisma.mailMessage.findMany({ where: { id: { in: [sent, failed, pending] } } })).map((m) => m.id)).toEqual([pending]);
  });

  it.skipIf(skip)("a row no release can render fails at once, without a send", async () => {
    const store = new OutboxStore(db.prisma);
    const id = await store.insert(db.prisma, { accountId: null, kind: "password_reset", recipient: "tampered@example.com", payload: "v1:not-sealed-by-us" }, clock);
    await worker(smtp.url).runOnce();
    expect(await row(id)).toMatchObject({ status: "failed", attempts: 1 });
    expect(smtp.messages.some((m) => addressesOf(m).includes("tampered@example.com"))).toBe(false);
  });
});
