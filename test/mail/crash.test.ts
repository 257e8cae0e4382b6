import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrisma, type PrismaClient } from "../../lib/db/prisma.ts";
import { mailSettings } from "../../lib/mail/mail-env.ts";
import { openOutbox } from "../../lib/mail/outbox.ts";
import { MailWorker } from "../../lib/mail/mail-worker.ts";
import { OutboxStore } from "../../lib/mail/outbox-store.ts";
import { createMailTransport } from "../../lib/mail/transport.ts";
import { loadServerSecret } from "../../lib/security/secrets.ts";
import { freePort, killAll, startChild, until, type Child } from "../support/processes.ts";
import { freshDatabase } from "../support/service.ts";
import { addressesOf, startSmtpServer, type TestSmtpServer } from "../support/smtp.ts";

/*
 * kill -9 of a worker process in the middle of a send loses nothing and sends nothing twice: the real
 * `start:worker` process holds the mail's lease while the SMTP server holds its data unanswered, dies, and
 * once the lease ends another worker sends the mail, exactly once.
 */
describe("the outbox across a kill -9", { timeout: 60_000 }, () => {
  const children: Child[] = [];
  let database: { url: string; dir: string };
  let prisma: PrismaClient;
  let smtp: TestSmtpServer;

  beforeAll(async () => {
    database = freshDatabase();
    prisma = createPrisma(database.url);
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    await killAll(children);
    await smtp.close();
    await prisma.$disconnect();
    fs.rmSync(database.dir, { recursive: true, force: true });
  });

  it("a mail being sent when its worker is killed is sent once, by the next worker, after the lease", async () => {
    const secret = loadServerSecret({ DATABASE_URL: database.url });
    const outbox = openOutbox(prisma, secret);
    const id = await outbox.queue(prisma, { kind: "verify_email", to: "crash@example.com", accountId: null, data: { link: "http://localhost:3000/verify-email?token=x", hours: 24 } }, Date.now());
    smtp.hold = true;
    const env = {
      ...process.env,
      PORT: String(await freePort()),
      HOST: "127.0.0.1",
      DATABASE_URL: database.url,
      SHARECOUNT_NETWORKS: "sandbox",
      SANDBOX_PORT: String(await freePort()),
      SMTP_URL: smtp.url,
    };
    const worker = startChild("worker", "start/worker.ts", env);
    children.push(worker);
    await until("the worker to be sending the mail", async () => smtp.held, (held) => held === 1, 30_000, [worker]);
    worker.process.kill("SIGKILL");
    await worker.exited;

    const held = await prisma.mailMessage.findUniqueOrThrow({ where: { id } });
    expect(held).toMatchObject({ status: "pending", attempts: 1 });
    expect(held.leaseOwner).not.toBeNull();
    expect(smtp.messages).toHaveLength(0);

    smtp.hold = false;
    const next = (now: () => number) =>
      new MailWorker({
        store: new OutboxStore(prisma),
        outbox,
        transport: createMailTransport(mailSettings({ SMTP_URL: smtp.url, MAIL_DIR: "unused", PORT: 3000 })),
        origin: "http://localhost:3000",
        now,
        log: () => {},
      });
    // While the dead worker's lease lasts, nobody takes the mail over.
    expect(await next(Date.now).runOnce()).toBe(0);
    expect(await next(() => held.dueAt.getTime()).runOnce()).toBe(1);
    await smtp.waitFor((m) => addressesOf(m).includes("crash@example.com"));
    expect(smtp.messages).toHaveLength(1);
    expect(await prisma.mailMessage.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "sent", attempts: 2 });
  });

  it("without SMTP_URL, writes each mail whole as an .eml file and logs where it went and its link", async () => {
    const dir = path.join(database.dir, "mail");
    const lines: string[] = [];
    const transport = createMailTransport(mailSettings({ MAIL_DIR: dir, PORT: 3000 }), (line) => lines.push(line));
    const date = new Date(Date.UTC(2026, 2, 1, 9));
    const link = "http://localhost:3000/reset-password?token=abc";
    await transport.send({ id: "m-1", to: "files@example.com", subject: "Reset your sharecount password", html: `<a href="${link}">reset</a>`, text: link, notice: false, link, date });
    const files = fs.readdirSync(dir);
    expect(files).toEqual(["2026-03-01T09-00-00-000Z-m-1.eml"]);
    const eml = fs.readFileSync(path.join(dir, files[0]!), "utf8");
    expect(eml).toMatch(/^From: sharecount <no-reply@localhost>$/m);
    expect(eml).toMatch(/^To: files@example.com$/m);
    expect(eml).toMatch(/^Message-ID: <m-1@localhost>$/m);
    expect(eml).toContain(link);
    expect(lines.map((l) => JSON.parse(l))).toEqual([{ event: "mail_written", to: "files@example.com", subject: "Reset your sharecount password", file: path.join(dir, files[0]!), link }]);
  });
});
