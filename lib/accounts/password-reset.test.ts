import { createHash, randomBytes } from "node:crypto";
import { FIXTURE_AUDIT, NO_CLIENT } from "../../test/support/audit.ts";
import { verify } from "@node-rs/argon2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addressesOf, linkIn, startSmtpServer, type TestSmtpServer } from "../../test/support/smtp.ts";
import { postgresSkipReason, postgresStoreDatabase, sqliteStoreDatabase, type StoreDatabase } from "../../test/support/stores.ts";
import { mailSettings } from "../mail/mail-env.ts";
import { MailWorker } from "../mail/mail-worker.ts";
import { MAIL_VAULT_PURPOSE, Outbox } from "../mail/outbox.ts";
import { OutboxStore } from "../mail/outbox-store.ts";
import { createMailTransport } from "../mail/transport.ts";
import { QuotaClock } from "../quota/clock.ts";
import { KeyVault } from "../security/secrets.ts";
import { openStore } from "../store/open.ts";
import type { Store } from "../store/store.ts";
import { Accounts } from "./accounts.ts";
import { hashPassword } from "./password-hash.ts";
import { noticeTime, PasswordReset } from "./password-reset.ts";

/** Forgot and reset password on both databases, the clock the test's, mail delivered to a real SMTP server. */
const skipPostgres = (await postgresSkipReason("lib/accounts/password-reset.test.ts")) !== undefined;
const drivers = [
  { name: "SQLite", database: sqliteStoreDatabase, skip: false },
  { name: "PostgreSQL", database: postgresStoreDatabase, skip: skipPostgres },
];

const T0 = Date.UTC(2026, 2, 1, 9);
const MINUTE = 60_000;
const ORIGIN = "https://sharecount.example.com";
const OLD_PASSWORD = "an old and long password";
const secret = randomBytes(32);

describe.each(drivers)("password reset on $name", ({ database, skip }) => {
  let db: StoreDatabase;
  let smtp: TestSmtpServer;
  let oldHash: string;
  let seq = 0;
  const outbox = () => new Outbox(new OutboxStore(db.prisma), new KeyVault(secret, MAIL_VAULT_PURPOSE));
  const reset = (queue: Outbox = outbox()) => new PasswordReset({ prisma: db.prisma, outbox: queue, linkOrigin: ORIGIN, ttlMinutes: 60, timeZone: "UTC" });

  /** A new account (with the old password unless `password: false`), its sign-in providers and two sessions. */
  async function account(options: { password?: boolean; providers?: string[] } = {}) {
    const id = `acct-${++seq}-${randomBytes(3).toString("hex")}`;
    const email = `${id}@example.com`;
    await db.prisma.account.create({
      data: {
        id,
        email,
        planName: "free",
        passwordHash: options.password === false ? null : oldHash,
        signInProviders: { create: (options.providers ?? []).map((provider) => ({ type: "oauth", provider, providerAccountId: `${provider}-${id}` })) },
        sessions: { create: [1, 2].map((n) => ({ sessionToken: `${id}-session-${n}`, expires: new Date(T0 + 30 * 24 * 60 * MINUTE) })) },
      },
    });
    return { id, email };
  }
  const mails = (accountId: string) => db.prisma.mailMessage.findMany({ where: { accountId }, orderBy: { createdAt: "asc" } });
  const opened = async (accountId: string) => (await mails(accountId)).map((m) => ({ kind: m.kind, to: m.recipient, data: outbox().open(m.payload!) }));
  const tokenOf = (link: string) => new URL(link).searchParams.get("token")!;
  const passwordHashOf = async (id: string) => (await db.prisma.account.findUniqueOrThrow({ where: { id } })).passwordHash;
  const sessionsOf = (userId: string) => db.prisma.session.count({ where: { userId } });
  /** Asks for a link and answers the token it mailed. */
  async function linkFor(email: string, accountId: string, now = T0): Promise<string> {
    expect(await reset().request(email, now)).toBe("link");
    const last = (await opened(accountId)).at(-1)!;
    return tokenOf((last.data as { link: string }).link);
  }

  beforeAll(async () => {
    if (skip) return;
    db = await database();
    const free = { name: "free", dailyQuota: 500, bulkBatchLimit: 0, customTtlAllowed: false };
    await db.prisma.plan.upsert({ where: { name: "free" }, create: free, update: {} });
    oldHash = await hashPassword(OLD_PASSWORD);
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    await smtp?.close();
    await db?.drop();
  });

  describe.skipIf(skip)("", () => {
    it("queues a link whose token is stored only as its SHA-256, valid 60 minutes, with the mail in the outbox", async () => {
      const { id, email } = await account();
      expect(await reset().request(email.toUpperCase(), T0)).toBe("link");
      const [mail, ...more] = await opened(id);
      expect(more).toEqual([]);
      expect(mail).toMatchObject({ kind: "password_reset", to: email, data: { minutes: 60 } });
      const link = (mail!.data as { link: string }).link;
      expect(link).toMatch(new RegExp(`^${ORIGIN}/reset-password\\?token=[A-Za-z0-9_-]{43}$`));
      const token = tokenOf(link);
      expect(Buffer.from(token, "base64url")).toHaveLength(32);

      const rows = await db.prisma.accountToken.findMany({ where: { accountId: id } });
      expect(rows).toEqual([
        expect.objectContaining({ tokenHash: createHash("sha256").update(token).digest("hex"), purpose: "password_reset", usedAt: null }),
      ]);
      expect(rows[0]!.createdAt.getTime()).toBe(T0);
      expect(rows[0]!.expiresAt.getTime()).toBe(T0 + 60 * MINUTE);
      // Neither table holds the token itself (the mail's payload is sealed).
      const stored = JSON.stringify([rows, await mails(id)]);
      expect(stored).not.toContain(token);
    });

    it("writes token and mail in one transaction: when the mail cannot be queued, no token is left and the older link still works", async () => {
      const { id, email } = await account();
      const older = await linkFor(email, id);
      const failing = { queue: () => Promise.reject(new Error("the outbox is full")) } as unknown as Outbox;
      await expect(reset(failing).request(email, T0 + MINUTE)).rejects.toThrow("the outbox is full");
      expect(await db.prisma.accountToken.count({ where: { accountId: id } })).toBe(1);
      expect(await reset().check(older, T0 + MINUTE)).toEqual({ ok: true, accountId: id, email });
    });

    it("writes nothing for an unknown address", async () => {
      const before = [await db.prisma.mailMessage.count(), await db.prisma.accountToken.count()];
      expect(await reset().request("nobody-here@example.com", T0)).toBe("none");
      expect([await db.prisma.mailMessage.count(), await db.prisma.accountToken.count()]).toEqual(before);
    });

    it("mails an account that signs in only with GitHub or Google that it has no password, with no link to reset", async () => {
      const oauthOnly = await account({ password: false, providers: ["github", "google"] });
      expect(await reset().request(oauthOnly.email, T0)).toBe("oauth");
      expect(await opened(oauthOnly.id)).toEqual([
        { kind: "password_reset_oauth", to: oauthOnly.email, data: { providers: ["GitHub", "Google"], link: `${ORIGIN}/sign-in` } },
      ]);
      expect(await db.prisma.accountToken.count({ where: { accountId: oauthOnly.id } })).toBe(0);

      // A password as well, or neither (an operator made it without one): a link, which sets the password.
      for (const other of [await account({ providers: ["github"] }), await account({ password: false })]) {
        expect(await reset().request(other.email, T0)).toBe("link");
        expect((await opened(other.id)).map((m) => m.kind)).toEqual(["password_reset"]);
      }
    });

    it("a newer link voids the older one", async () => {
      const { id, email } = await account();
      const first = await linkFor(email, id);
      const second = await linkFor(email, id, T0 + 5 * MINUTE);
      expect(await reset().check(first, T0 + 6 * MINUTE)).toEqual({ ok: false, reason: "unknown" });
      expect(await reset().complete(first, "a brand new long password", T0 + 6 * MINUTE, NO_CLIENT)).toEqual({ ok: false, reason: "unknown" });
      expect(await reset().check(second, T0 + 6 * MINUTE)).toEqual({ ok: true, accountId: id, email });
    });

    it("a link works for 60 minutes, and not at the 60th", async () => {
      const { id, email } = await account();
      const token = await linkFor(email, id);
      expect(await reset().check(token, T0 + 60 * MINUTE - 1)).toMatchObject({ ok: true });
      expect(await reset().check(token, T0 + 60 * MINUTE)).toEqual({ ok: false, reason: "expired" });
      expect(await reset().complete(token, "a brand new long password", T0 + 60 * MINUTE, NO_CLIENT)).toEqual({ ok: false, reason: "expired" });
      expect(await passwordHashOf(id)).toBe(oldHash);
      expect(await sessionsOf(id)).toBe(2);
      expect(await reset().check("not-a-token-anyone-was-sent", T0)).toEqual({ ok: false, reason: "unknown" });
    });

    it("sets the password, ends every session and queues the notice, once: of two simultaneous uses one wins", async () => {
      const { id, email } = await account();
      const token = await linkFor(email, id);
      const at = T0 + 10 * MINUTE;
      const outcomes = await Promise.all(["first new long password", "second new long password"].map((p) => reset().complete(token, p, at, NO_CLIENT)));
      expect(outcomes.filter((o) => o.ok)).toEqual([{ ok: true, accountId: id, email }]);
      expect(outcomes.filter((o) => !o.ok)).toEqual([{ ok: false, reason: "used" }]);

      const hash = (await passwordHashOf(id))!;
      const valid = await Promise.all(["first new long password", "second new long password", OLD_PASSWORD].map((p) => verify(hash, p)));
      expect(valid.filter(Boolean)).toHaveLength(1);
      expect(valid[2]).toBe(false);
      expect(await sessionsOf(id)).toBe(0);
      const notices = (await opened(id)).filter((m) => m.kind === "password_changed");
      expect(notices).toEqual([{ kind: "password_changed", to: email, data: { when: "on 1 March 2026 at 09:10 UTC", link: `${ORIGIN}/forgot-password` } }]);
      expect((await db.prisma.accountToken.findFirstOrThrow({ where: { accountId: id } })).usedAt?.getTime()).toBe(at);
      expect(await reset().check(token, at + 1)).toEqual({ ok: false, reason: "used" });
    });

    it("changes nothing when the notice cannot be queued: the token stays unused, the password and sessions as they were", async () => {
      const { id, email } = await account();
      const token = await linkFor(email, id);
      const notice = reset();
      const failing = new PasswordReset({ prisma: db.prisma, outbox: { queue: () => Promise.reject(new Error("no room")) } as unknown as Outbox, linkOrigin: ORIGIN, ttlMinutes: 60, timeZone: "UTC" });
      await expect(failing.complete(token, "a brand new long password", T0 + MINUTE, NO_CLIENT)).rejects.toThrow("no room");
      expect(await passwordHashOf(id)).toBe(oldHash);
      expect(await sessionsOf(id)).toBe(2);
      expect(await notice.check(token, T0 + MINUTE)).toMatchObject({ ok: true });
    });

    it("a password change from the settings queues the notice in its own transaction, and none when it fails", async () => {
      const { id, email } = await account();
      const store: Store = openStore(db.url);
      try {
        const accounts = new Accounts(db.prisma, new QuotaClock("UTC", () => T0), store);
        const session = await db.prisma.session.findFirstOrThrow({ where: { userId: id } });
        const change = { audit: FIXTURE_AUDIT, via: "settings", keepSessionId: session.id } as const;
        const failed = accounts.setPassword(id, "a changed long password", { ...change, within: () => Promise.reject(new Error("no room")) });
        await expect(failed).rejects.toThrow("no room");
        expect(await passwordHashOf(id)).toBe(oldHash);
        expect(await sessionsOf(id)).toBe(2);

        const ended = await accounts.setPassword(id, "a changed long password", { ...change, within: (tx) => reset().queueChangedNotice(tx, { id, email }, T0) });
        expect(ended).toBe(1);
        expect(await verify((await passwordHashOf(id))!, "a changed long password")).toBe(true);
        expect((await opened(id)).map((m) => m.kind)).toEqual(["password_changed"]);
      } finally {
        await store.close();
      }
    });

    it("the mail worker delivers the link, the GitHub/Google mail and the notice as the templates say, in HTML and text", async () => {
      const worker = new MailWorker({
        store: new OutboxStore(db.prisma),
        outbox: outbox(),
        transport: createMailTransport(mailSettings({ SMTP_URL: smtp.url, MAIL_DIR: "unused", SHARECOUNT_PUBLIC_URL: ORIGIN, PORT: 3000 })),
        origin: ORIGIN,
        now: () => T0,
        log: () => {},
      });
      const user = await account();
      const oauthOnly = await account({ password: false, providers: ["google"] });
      const token = await linkFor(user.email, user.id);
      await reset().request(oauthOnly.email, T0);
      expect(await reset().complete(token, "a brand new long password", T0, NO_CLIENT)).toMatchObject({ ok: true });
      try {
        while ((await worker.runOnce()) > 0);
      } finally {
        await worker.stop();
      }
      const to = (address: string, subject: RegExp) => smtp.waitFor((m) => addressesOf(m).includes(address) && subject.test(m.subject ?? ""));

      const resetMail = await to(user.email, /Reset your sharecount password/);
      const link = `${ORIGIN}/reset-password?token=${token}`;
      expect(linkIn(resetMail, `${ORIGIN}/reset-password`)).toBe(link);
      expect(String(resetMail.html)).toContain(link);
      expect(resetMail.text).toContain("for 60 minutes");
      expect(resetMail.from?.text).toBe('"sharecount" <no-reply@sharecount.example.com>');
      expect(resetMail.headers.get("auto-submitted")).toBeUndefined();

      const notice = await to(user.email, /Your sharecount password was changed/);
      expect(notice.text).toContain("was changed on 1 March 2026 at 09:00 UTC");
      expect(linkIn(notice, `${ORIGIN}/forgot-password`)).toBe(`${ORIGIN}/forgot-password`);
      expect(notice.headers.get("auto-submitted")).toBe("auto-generated");

      const oauthMail = await to(oauthOnly.email, /Signing in to sharecount/);
      for (const part of [oauthMail.text ?? "", String(oauthMail.html)]) {
        expect(part).toContain("signs in with Google");
        expect(part).toContain(`${ORIGIN}/sign-in`);
        expect(part).not.toContain("reset-password");
      }
    });
  });
});

describe("noticeTime", () => {
  it("says when, in the service's time zone, named", () => {
    expect(noticeTime(Date.UTC(2026, 2, 1, 9, 5), "UTC")).toBe("on 1 March 2026 at 09:05 UTC");
    expect(noticeTime(Date.UTC(2026, 6, 31, 23, 30), "Europe/Berlin")).toBe("on 1 August 2026 at 01:30 CEST");
  });
});
