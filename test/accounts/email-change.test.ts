import { describe, expect, it } from "vitest";
import { FIXTURE_AUDIT, NO_CLIENT } from "../support/audit.ts";
import { ADDRESS_REFUSED } from "../../lib/accounts/email-change.ts";
import { PasswordReset } from "../../lib/accounts/password-reset.ts";
import { EMAIL_LINK_TTL_MS } from "../../lib/accounts/email-verification.ts";
import { accountMailHarness, ORIGIN } from "../support/account-mail.ts";
import { linkIn } from "../support/smtp.ts";
import { postgresSkipReason, postgresStoreDatabase, sqliteStoreDatabase } from "../support/stores.ts";

/** Moving an account to another address, on both databases, delivered through a real mail worker and SMTP server. */
const skipPostgres = (await postgresSkipReason("test/accounts/email-change.test.ts")) !== undefined;
const drivers = [
  { name: "SQLite", database: sqliteStoreDatabase, skip: false },
  { name: "PostgreSQL", database: postgresStoreDatabase, skip: skipPostgres },
];

const PASSWORD = "a-long-password-1";
let seq = 0;
const newAddress = () => `new-${++seq}-${Date.now().toString(36)}@example.com`;

describe.each(drivers)("changing the address on $name", ({ database, skip }) => {
  const h = accountMailHarness(database, skip);
  const emailOf = async (id: string) => (await h.db.prisma.account.findUniqueOrThrow({ where: { id } })).email;
  /** Asks for the change and answers the token of the link delivered to the new address. */
  const requestChange = async (accountId: string, to: string) => {
    expect(await h.mail.change.request(accountId, to, h.clock.now)).toEqual({ ok: true, email: to });
    await h.deliver();
    return new URL(linkIn(h.received(to).at(-1)!, `${ORIGIN}/change-email`)).searchParams.get("token")!;
  };

  const resets = () => new PasswordReset({ prisma: h.db.prisma, outbox: h.outbox, linkOrigin: ORIGIN, ttlMinutes: 60, timeZone: "UTC" });
  const tokenOf = (link: string) => new URL(link).searchParams.get("token")!;

  it.skipIf(skip)("a new password voids a pending change: the owner who reset it keeps the account", async () => {
    const account = await h.account(PASSWORD);
    // Someone with the password asks to move the account to their own address …
    const token = await requestChange(account.id, newAddress());
    // … and the owner, warned by the notice, sets a new password (by a reset link, the settings or an operator).
    const reset = await resets().link(account.email, h.clock.now);
    expect((await resets().complete(tokenOf(reset.link), "another-long-password-2", h.clock.now, NO_CLIENT)).ok).toBe(true);
    expect(await h.mail.change.confirm(token, h.clock.now, NO_CLIENT)).toEqual({ ok: false, reason: "unknown" });
    expect(await emailOf(account.id)).toBe(account.email);

    const again = await requestChange(account.id, newAddress());
    await h.accounts.setPassword(account.id, "a-third-long-password-3", { audit: FIXTURE_AUDIT, via: "admin" });
    expect(await h.mail.change.confirm(again, h.clock.now, NO_CLIENT)).toEqual({ ok: false, reason: "unknown" });
  });

  it.skipIf(skip)("once the address moved, reset links mailed to the old address do nothing", async () => {
    const account = await h.account(PASSWORD);
    const reset = await resets().link(account.email, h.clock.now);
    const token = await requestChange(account.id, newAddress());
    expect((await h.mail.change.confirm(token, h.clock.now, NO_CLIENT)).ok).toBe(true);
    expect(await resets().check(tokenOf(reset.link), h.clock.now)).toEqual({ ok: false, reason: "unknown" });
    expect((await resets().complete(tokenOf(reset.link), "another-long-password-2", h.clock.now, NO_CLIENT)).ok).toBe(false);
  });

  it.skipIf(skip)("mails the new address its link and the old one a notice; the old address stays until the link is opened", async () => {
    const account = await h.account(PASSWORD);
    const to = newAddress();
    const token = await requestChange(account.id, to);

    const [confirm] = h.received(to);
    expect(confirm!.subject).toBe("Confirm your new email address for sharecount");
    expect(String(confirm!.html)).toContain(`${ORIGIN}/change-email?token=${token}`);
    expect(confirm!.text).toContain(`${ORIGIN}/change-email?token=${token}`);
    const [notice] = h.received(account.email);
    expect(notice!.subject).toBe("Your sharecount email address is being changed");
    expect(notice!.text).toContain(to);
    expect(notice!.text).not.toContain(token);
    expect(notice!.headers.get("auto-submitted")).toBe("auto-generated");

    // Nothing moved yet: the account signs in with its old address, and shows the change as waiting.
    expect(await emailOf(account.id)).toBe(account.email);
    expect(await h.accounts.withPassword(account.email, PASSWORD)).toEqual({ id: account.id });
    expect(await h.accounts.withPassword(to, PASSWORD)).toBeNull();
    expect(await h.mail.change.pendingOf(account.id, h.clock.now)).toBe(to);
    const row = await h.db.prisma.accountToken.findFirstOrThrow({ where: { accountId: account.id, purpose: "change_email" } });
    expect(row.email).toBe(to);
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(EMAIL_LINK_TTL_MS);
  });

  it.skipIf(skip)("opening the link moves the account, confirms the new address and tells the old one; the link works once", async () => {
    const account = await h.account(PASSWORD);
    const to = newAddress();
    const token = await requestChange(account.id, to);
    h.clock.now += 3600_000;
    expect(await h.mail.change.confirm(token, h.clock.now, NO_CLIENT)).toEqual({ ok: true, email: to });

    expect(await emailOf(account.id)).toBe(to);
    expect(await h.mail.verification.verifiedAddressOf(account.id)).toBe(to);
    expect(await h.accounts.withPassword(to, PASSWORD)).toEqual({ id: account.id });
    expect(await h.accounts.withPassword(account.email, PASSWORD)).toBeNull();
    expect(await h.mail.change.pendingOf(account.id, h.clock.now)).toBeNull();
    expect(await h.mail.change.confirm(token, h.clock.now, NO_CLIENT)).toEqual({ ok: false, reason: "used" });

    await h.deliver();
    expect((await h.mailTo(account.email)).map((m) => m.kind)).toEqual(["email_change_requested", "email_changed"]);
    const changed = h.received(account.email).at(-1)!;
    expect(changed.subject).toBe("Your sharecount email address was changed");
    expect(changed.text).toContain(to);
    expect(changed.text).toContain("on 1 March 2026 at 10:00 UTC");
    expect(h.received(to).map((m) => m.subject)).toEqual(["Confirm your new email address for sharecount"]);
  });

  it.skipIf(skip)("refuses an address another account has with the words of any refusal, and the account's own", async () => {
    const [account, other] = [await h.account(PASSWORD), await h.account()];
    expect(await h.mail.change.request(account.id, other.email, h.clock.now)).toEqual({ ok: false, error: ADDRESS_REFUSED });
    expect(ADDRESS_REFUSED).not.toMatch(/another account|exists|taken|in use/i);
    expect(await h.mail.change.request(account.id, account.email, h.clock.now)).toEqual({ ok: false, error: "That is your address already." });
    expect(await h.mailTo(other.email)).toEqual([]);
    expect(await h.mailTo(account.email)).toEqual([]);
    expect(await h.mail.change.pendingOf(account.id, h.clock.now)).toBeNull();
  });

  it.skipIf(skip)("two accounts confirming one new address: the first gets it, the second a refusal, never an error", async () => {
    const [first, second] = [await h.account(PASSWORD), await h.account(PASSWORD)];
    const to = newAddress();
    const firstToken = await requestChange(first.id, to);
    const secondToken = await requestChange(second.id, to);
    expect(await h.mail.change.confirm(firstToken, h.clock.now, NO_CLIENT)).toEqual({ ok: true, email: to });
    expect(await h.mail.change.confirm(secondToken, h.clock.now, NO_CLIENT)).toEqual({ ok: false, reason: "taken" });
    // Rolled back whole: the second keeps its address and gets no notice, and its link says the same again.
    expect(await emailOf(second.id)).toBe(second.email);
    expect((await h.mailTo(second.email)).map((m) => m.kind)).toEqual(["email_change_requested"]);
    expect(await h.mail.change.confirm(secondToken, h.clock.now, NO_CLIENT)).toEqual({ ok: false, reason: "taken" });
  });

  it.skipIf(skip)("the same race at the same moment: exactly one account gets the address", async () => {
    const accounts = [await h.account(PASSWORD), await h.account(PASSWORD), await h.account(PASSWORD)];
    const to = newAddress();
    const tokens = [];
    for (const account of accounts) tokens.push(await requestChange(account.id, to));
    const results = await Promise.all(tokens.map((token) => h.mail.change.confirm(token, h.clock.now, NO_CLIENT)));
    expect(results.filter((r) => r.ok)).toEqual([{ ok: true, email: to }]);
    expect(results.filter((r) => !r.ok)).toEqual([
      { ok: false, reason: "taken" },
      { ok: false, reason: "taken" },
    ]);
    expect(await h.db.prisma.account.count({ where: { email: to } })).toBe(1);
  });

  it.skipIf(skip)("a newer request voids the older link; an expired link changes nothing", async () => {
    const account = await h.account(PASSWORD);
    const [before, after] = [newAddress(), newAddress()];
    const older = await requestChange(account.id, before);
    const newer = await requestChange(account.id, after);
    expect(await h.mail.change.confirm(older, h.clock.now, NO_CLIENT)).toEqual({ ok: false, reason: "unknown" });
    expect(await h.mail.change.pendingOf(account.id, h.clock.now)).toBe(after);
    expect(await h.mail.change.confirm(newer, h.clock.now + EMAIL_LINK_TTL_MS, NO_CLIENT)).toEqual({ ok: false, reason: "expired" });
    expect(await h.mail.change.pendingOf(account.id, h.clock.now + EMAIL_LINK_TTL_MS)).toBeNull();
    expect(await emailOf(account.id)).toBe(account.email);
  });
});
