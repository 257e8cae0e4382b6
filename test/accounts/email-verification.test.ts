import { describe, expect, it } from "vitest";
import { hashToken } from "../../lib/accounts/account-tokens.ts";
import { accountMailOf } from "../../lib/accounts/account-mail.ts";
import { AccountError } from "../../lib/accounts/accounts.ts";
import { EMAIL_LINK_TTL_MS } from "../../lib/accounts/email-verification.ts";
import { accountMailHarness, ORIGIN } from "../support/account-mail.ts";
import { linkIn } from "../support/smtp.ts";
import { postgresSkipReason, postgresStoreDatabase, sqliteStoreDatabase } from "../support/stores.ts";

/** Confirming an account's address, on both databases, delivered through a real mail worker and SMTP server. */
const skipPostgres = (await postgresSkipReason("test/accounts/email-verification.test.ts")) !== undefined;
const drivers = [
  { name: "SQLite", database: sqliteStoreDatabase, skip: false },
  { name: "PostgreSQL", database: postgresStoreDatabase, skip: skipPostgres },
];

const tokenOf = (link: string) => new URL(link).searchParams.get("token")!;

describe.each(drivers)("address verification on $name", ({ database, skip }) => {
  const h = accountMailHarness(database, skip);
  let seq = 0;
  /** A sign-up as the dashboard makes it: the account, its link and its mail in one transaction. */
  const signUp = async (email = `signup-${++seq}@example.com`) => {
    const { account } = await h.accounts.create({ email, plan: "free", password: "a-long-password-1" }, (tx, created) =>
      h.mail.verification.send(tx, created, h.clock.now),
    );
    return account;
  };
  /** The link of the newest verification mail to `email`, as delivered. */
  const deliveredLink = async (email: string) => {
    await h.deliver();
    return linkIn(h.received(email).at(-1)!, `${ORIGIN}/verify-email`);
  };

  it.skipIf(skip)("a sign-up writes the account, its link and its mail together; the mail carries the link in both parts", async () => {
    const account = await signUp();
    const [token] = await h.db.prisma.accountToken.findMany({ where: { accountId: account.id } });
    expect(token).toMatchObject({ purpose: "verify_email", email: account.email, usedAt: null });
    expect(token!.expiresAt.getTime() - token!.createdAt.getTime()).toBe(24 * 3600_000);
    expect(await h.mailTo(account.email)).toEqual([{ kind: "verify_email", status: "pending" }]);
    expect(account.emailVerified).toBeNull();

    const link = await deliveredLink(account.email);
    const mail = h.received(account.email)[0]!;
    expect(mail.subject).toBe("Confirm your email address for sharecount");
    expect(String(mail.html)).toContain(link);
    // 32 random bytes in the link, only their SHA-256 in the table.
    expect(Buffer.from(tokenOf(link), "base64url")).toHaveLength(32);
    expect(token!.tokenHash).toBe(hashToken(tokenOf(link)));
  });

  it.skipIf(skip)("no mail can be queued, no account: the sign-up fails whole", async () => {
    // A link that is no URL fails the mail's check, inside the sign-up's transaction.
    const broken = accountMailOf(h.db.prisma, h.outbox, "not a url");
    const email = `atomic-${++seq}@example.com`;
    await expect(h.accounts.create({ email, plan: "free" }, (tx, created) => broken.verification.send(tx, created, h.clock.now))).rejects.toThrow();
    expect(await h.db.prisma.account.count({ where: { email } })).toBe(0);
    expect(await h.mailTo(email)).toEqual([]);
    expect(await h.db.prisma.accountToken.count({ where: { email } })).toBe(0);
  });

  it.skipIf(skip)("two sign-ups with one address at once: one account, one link, one mail, and the ordinary refusal", async () => {
    const email = `twice-${++seq}@example.com`;
    const results = await Promise.allSettled([signUp(email), signUp(email)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(AccountError);
    expect(await h.db.prisma.accountToken.count({ where: { email } })).toBe(1);
    expect(await h.mailTo(email)).toHaveLength(1);
  });

  it.skipIf(skip)("the link confirms the address once; opened again it says it was used", async () => {
    const account = await signUp();
    const token = tokenOf(await deliveredLink(account.email));
    expect(await h.mail.verification.verifiedAddressOf(account.id)).toBeNull();
    expect(await h.mail.verification.confirm(token, h.clock.now)).toEqual({ ok: true, email: account.email });
    expect(await h.mail.verification.verifiedAddressOf(account.id)).toBe(account.email);
    expect(await h.mail.verification.confirm(token, h.clock.now)).toEqual({ ok: false, reason: "used" });
    expect(await h.mail.verification.confirm("no-such-token", h.clock.now)).toEqual({ ok: false, reason: "unknown" });
  });

  it.skipIf(skip)("two browsers opening the link at once: one confirms, the other is told it was used", async () => {
    const account = await signUp();
    const token = tokenOf(await deliveredLink(account.email));
    const results = await Promise.all([h.mail.verification.confirm(token, h.clock.now), h.mail.verification.confirm(token, h.clock.now)]);
    expect(results).toContainEqual({ ok: true, email: account.email });
    expect(results).toContainEqual({ ok: false, reason: "used" });
  });

  it.skipIf(skip)("works for 24 hours and not a moment longer", async () => {
    const [early, late] = [await signUp(), await signUp()];
    const sentAt = h.clock.now;
    const [earlyToken, lateToken] = [tokenOf(await deliveredLink(early.email)), tokenOf(await deliveredLink(late.email))];
    expect(await h.mail.verification.confirm(earlyToken, sentAt + EMAIL_LINK_TTL_MS - 1)).toEqual({ ok: true, email: early.email });
    expect(await h.mail.verification.confirm(lateToken, sentAt + EMAIL_LINK_TTL_MS)).toEqual({ ok: false, reason: "expired" });
    expect(await h.mail.verification.verifiedAddressOf(late.id)).toBeNull();
  });

  it.skipIf(skip)("a new link voids the older; once confirmed, asking again sends nothing", async () => {
    const account = await signUp();
    const first = tokenOf(await deliveredLink(account.email));
    h.clock.now += 60_000;
    expect(await h.mail.verification.resend(account.id, h.clock.now)).toBe("sent");
    const second = tokenOf(await deliveredLink(account.email));
    expect(second).not.toBe(first);
    expect(await h.mail.verification.confirm(first, h.clock.now)).toEqual({ ok: false, reason: "unknown" });
    expect(await h.mail.verification.confirm(second, h.clock.now)).toEqual({ ok: true, email: account.email });
    expect(await h.mail.verification.resend(account.id, h.clock.now)).toBe("verified");
    expect(await h.mailTo(account.email)).toEqual([
      { kind: "verify_email", status: "sent" },
      { kind: "verify_email", status: "sent" },
    ]);
  });

  it.skipIf(skip)("a link for an address the account no longer has confirms nothing", async () => {
    const account = await signUp();
    const token = tokenOf(await deliveredLink(account.email));
    await h.db.prisma.account.update({ where: { id: account.id }, data: { email: `moved-${seq}@example.com` } });
    expect(await h.mail.verification.confirm(token, h.clock.now)).toEqual({ ok: false, reason: "replaced" });
    expect(await h.mail.verification.verifiedAddressOf(account.id)).toBeNull();
  });
});
