import { randomBytes } from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import { accountMailOf, type AccountMail } from "../../lib/accounts/account-mail.ts";
import { Accounts } from "../../lib/accounts/accounts.ts";
import { ensureDefaultPlans } from "../../lib/accounts/plans.ts";
import { mailSettings } from "../../lib/mail/mail-env.ts";
import { MailWorker } from "../../lib/mail/mail-worker.ts";
import { MAIL_VAULT_PURPOSE, Outbox } from "../../lib/mail/outbox.ts";
import { OutboxStore } from "../../lib/mail/outbox-store.ts";
import { createMailTransport } from "../../lib/mail/transport.ts";
import { QuotaClock } from "../../lib/quota/clock.ts";
import { KeyVault } from "../../lib/security/secrets.ts";
import { openStore } from "../../lib/store/open.ts";
import type { Store } from "../../lib/store/store.ts";
import { addressesOf, startSmtpServer, type TestSmtpServer } from "./smtp.ts";
import type { StoreDatabase } from "./stores.ts";

export const ORIGIN = "https://sharecount.example.com";
export const T0 = Date.UTC(2026, 2, 1, 9);

/**
 * The account mail of lib/accounts on a fresh database (default plans), with the test's clock (`clock.now`,
 * moved by the test), and a real mail worker that delivers the outbox to an SMTP server on loopback.
 */
export interface AccountMailHarness {
  db: StoreDatabase;
  clock: { now: number };
  accounts: Accounts;
  /** The outbox the harness's mail queues into (for a second AccountMail, with another origin). */
  outbox: Outbox;
  mail: AccountMail;
  smtp: TestSmtpServer;
  /** Sends what the outbox holds; answers how many mails went out. */
  deliver(): Promise<number>;
  /** The queued and sent mail to `to`, oldest first. */
  mailTo(to: string): Promise<{ kind: string; status: string }[]>;
  /** What the SMTP server received for `to`. */
  received(to: string): TestSmtpServer["messages"];
  /** A new account with a unique address (no mail of its own); its id and address. */
  account(password?: string): Promise<{ id: string; email: string }>;
}

/** The harness for the tests of the calling describe block, on `database` (skipped when `skip`). */
export function accountMailHarness(database: () => Promise<StoreDatabase>, skip = false): AccountMailHarness {
  let store: Store | undefined;
  let seq = 0;
  const secret = randomBytes(32);
  const harness = {
    clock: { now: T0 },
    async deliver() {
      const worker = new MailWorker({
        store: new OutboxStore(harness.db.prisma),
        outbox: harness.outbox,
        transport: createMailTransport(mailSettings({ SMTP_URL: harness.smtp.url, MAIL_DIR: "unused", SHARECOUNT_PUBLIC_URL: ORIGIN, PORT: 3000 })),
        origin: ORIGIN,
        now: () => harness.clock.now,
        log: () => {},
      });
      try {
        return await worker.runOnce(100);
      } finally {
        await worker.stop();
      }
    },
    mailTo: (to: string) =>
      harness.db.prisma.mailMessage.findMany({ where: { recipient: to }, orderBy: { createdAt: "asc" }, select: { kind: true, status: true } }),
    received: (to: string) => harness.smtp.messages.filter((m) => addressesOf(m).includes(to)),
    async account(password?: string) {
      const email = `user-${++seq}-${randomBytes(3).toString("hex")}@example.com`;
      const { account } = await harness.accounts.create({ email, plan: "free", password });
      return { id: account.id, email: account.email };
    },
  } as AccountMailHarness;
  beforeAll(async () => {
    if (skip) return;
    harness.db = await database();
    await ensureDefaultPlans(harness.db.prisma);
    store = openStore(harness.db.url);
    const clock = new QuotaClock("UTC", () => harness.clock.now);
    harness.accounts = new Accounts(harness.db.prisma, clock, store);
    harness.outbox = new Outbox(new OutboxStore(harness.db.prisma), new KeyVault(secret, MAIL_VAULT_PURPOSE));
    harness.mail = accountMailOf(harness.db.prisma, harness.outbox, ORIGIN);
    harness.smtp = await startSmtpServer();
  });
  afterAll(async () => {
    await harness.smtp?.close();
    await store?.close();
    await harness.db?.drop();
  });
  return harness;
}
