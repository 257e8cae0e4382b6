import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { accountMailOf } from "../../lib/accounts/account-mail.ts";
import { systemSource } from "../../lib/audit/actor.ts";
import { hashApiKey } from "../../lib/keys/api-key.ts";
import { ApiKeys, MAX_KEYS } from "../../lib/keys/api-keys.ts";
import { KeyError } from "../../lib/keys/key-errors.ts";
import { keyNotices } from "../../lib/keys/key-notices.ts";
import { ALL_SCOPES } from "../../lib/keys/scopes.ts";
import { grantableScopes } from "../../lib/members/roles.ts";
import { KeyVault } from "../../lib/security/secrets.ts";
import { accountMailHarness, ORIGIN } from "../support/account-mail.ts";
import { postgresSkipReason, postgresStoreDatabase, sqliteStoreDatabase } from "../support/stores.ts";

/** The key verbs (lib/keys/api-keys.ts) on both databases: limits, grace, grants, reveal, and the notices in their transactions. */
const skipPostgres = (await postgresSkipReason("test/keys/api-keys.test.ts")) !== undefined;
const drivers = [
  { name: "SQLite", database: sqliteStoreDatabase, skip: false },
  { name: "PostgreSQL", database: postgresStoreDatabase, skip: skipPostgres },
];

const HOUR = 3_600_000;

describe.each(drivers)("API keys on $name", ({ database, skip }) => {
  const h = accountMailHarness(database, skip);
  const vault = new KeyVault(randomBytes(32));
  let keys: ApiKeys;
  beforeAll(() => {
    if (!skip) keys = new ApiKeys(h.db.prisma, vault);
  });
  const now = () => h.clock.now;
  const source = () => systemSource(now());
  const rowOf = (id: string) => h.db.prisma.apiKey.findUniqueOrThrow({ where: { id } });

  it.skipIf(skip)("a new account has one key, Default, with every scope; a key is stored only as its hash and prefix", async () => {
    const account = await h.account();
    const [only] = await keys.list(account.id);
    expect(only).toMatchObject({ name: "Default", scopes: [...ALL_SCOPES], revokedAt: null, expiresAt: null, revealable: false });
    const made = await keys.create(account.id, { name: "Plugin", scopes: ["counts:read"], expiresAt: null }, ALL_SCOPES, source());
    expect(made.key).toMatch(/^[0-9a-f]{40}$/);
    const row = await rowOf(made.record.id);
    expect(row).toMatchObject({ keyHash: hashApiKey(made.key), prefix: made.key.slice(0, 8), sealed: null });
    expect(JSON.stringify(row)).not.toContain(made.key);
  });

  it.skipIf(skip)("tells its caller after a roll or revoke commits, and not when one is refused", async () => {
    const account = await h.account();
    const told: string[] = [];
    const watched = new ApiKeys(h.db.prisma, vault, () => told.push("committed"));
    const made = await watched.create(account.id, { name: "Plugin", scopes: ["counts:read"], expiresAt: null }, ALL_SCOPES, source());
    expect(told).toEqual([]);
    await watched.roll(account.id, made.record.id, 60, ALL_SCOPES, source(), async () => {
      // Inside the transaction: not yet.
      expect(told).toEqual([]);
    });
    expect(told).toEqual(["committed"]);
    await expect(watched.roll(account.id, made.record.id, 60, ALL_SCOPES, source())).rejects.toMatchObject({ code: "key_not_rollable" });
    await expect(watched.revoke(account.id, "key_missing", ALL_SCOPES, source())).rejects.toBeInstanceOf(KeyError);
    expect(told).toEqual(["committed"]);
    await watched.revoke(account.id, made.record.id, ALL_SCOPES, source());
    expect(told).toEqual(["committed", "committed"]);
  });

  it.skipIf(skip)("50 keys at most, also when 60 are created at once", async () => {
    const account = await h.account();
    const results = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) => keys.create(account.id, { name: `k${i}`, scopes: ["counts:read"], expiresAt: null }, ALL_SCOPES, source())),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(MAX_KEYS - 1);
    for (const failed of results.filter((r) => r.status === "rejected")) expect((failed.reason as KeyError).code).toBe("too_many_keys");
    expect(await h.db.prisma.apiKey.count({ where: { accountId: account.id } })).toBe(MAX_KEYS);
  });

  it.skipIf(skip)("a key can grant only scopes it has, by creating a key or by rolling a stronger one", async () => {
    const account = await h.account();
    const [strong] = await keys.list(account.id);
    const grantor = ["keys:write", "counts:read"] as const;
    await expect(keys.create(account.id, { name: "x", scopes: ["counts:read", "bulk:write"], expiresAt: null }, grantor, source())).rejects.toMatchObject({ code: "insufficient_scope" });
    await expect(keys.roll(account.id, strong!.id, 0, grantor, source())).rejects.toMatchObject({ code: "insufficient_scope" });
    await expect(keys.revoke(account.id, strong!.id, grantor, source())).rejects.toMatchObject({ code: "insufficient_scope" });
    expect((await keys.get(account.id, strong!.id)).revokedAt).toBeNull();
    expect((await keys.create(account.id, { name: "ok", scopes: ["counts:read"], expiresAt: null }, grantor, source())).record.scopes).toEqual(["counts:read"]);
  });

  it.skipIf(skip)("a roll keeps name, scopes and expiry; the old key's expiry becomes the end of its grace, never later than it was", async () => {
    const account = await h.account();
    const expiresAt = now() + 48 * HOUR;
    const old = await keys.create(account.id, { name: "CI", scopes: ["bulk:read", "bulk:write"], expiresAt }, ALL_SCOPES, source());
    const rolled = await keys.roll(account.id, old.record.id, 3600, ALL_SCOPES, source());
    expect(rolled.record).toMatchObject({ name: "CI", scopes: ["bulk:read", "bulk:write"], expiresAt });
    expect((await keys.get(account.id, old.record.id)).expiresAt).toBe(now() + HOUR);
    // A grace past the key's own expiry does not lengthen it.
    const again = await keys.roll(account.id, rolled.record.id, 7 * 24 * 3600, ALL_SCOPES, source());
    expect((await keys.get(account.id, rolled.record.id)).expiresAt).toBe(expiresAt);
    expect(again.record.expiresAt).toBe(expiresAt);
  });

  it.skipIf(skip)("a key is rolled once: rolling it again answers key_not_rollable, and its replacement keeps the creator's expiry", async () => {
    const account = await h.account();
    const expiresAt = now() + 48 * HOUR;
    const old = await keys.create(account.id, { name: "CI", scopes: ["counts:read"], expiresAt }, ALL_SCOPES, source());
    const first = await keys.roll(account.id, old.record.id, 3600, ALL_SCOPES, source());
    expect(first.record.expiresAt).toBe(expiresAt);
    // Still working through its grace, but rolled: a second roll would hand out a key that dies with the grace.
    await expect(keys.roll(account.id, old.record.id, 3600, ALL_SCOPES, source())).rejects.toMatchObject({ code: "key_not_rollable", message: expect.stringContaining(first.record.id) });
    // A grace of 0 rolls too, once: the old key is expired at once and cannot be rolled into a dead key.
    const second = await keys.roll(account.id, first.record.id, 0, ALL_SCOPES, source());
    expect(second.record.expiresAt).toBe(expiresAt);
    expect((await keys.get(account.id, first.record.id)).expiresAt).toBe(now());
    await expect(keys.roll(account.id, first.record.id, 0, ALL_SCOPES, source())).rejects.toMatchObject({ code: "key_not_rollable" });
    // The chain goes on through the newest key, each with the creator's expiry.
    expect((await keys.roll(account.id, second.record.id, 60, ALL_SCOPES, source())).record.expiresAt).toBe(expiresAt);
    expect(await h.db.prisma.auditEvent.count({ where: { accountId: account.id, action: "key.rolled" } })).toBe(3);
  });

  it.skipIf(skip)("a revoked or expired key cannot be rolled: key_not_rollable, nothing written", async () => {
    const account = await h.account();
    const revoked = await keys.create(account.id, { name: "gone", scopes: ["counts:read"], expiresAt: null }, ALL_SCOPES, source());
    await keys.revoke(account.id, revoked.record.id, ALL_SCOPES, source());
    await expect(keys.roll(account.id, revoked.record.id, 0, ALL_SCOPES, source())).rejects.toMatchObject({ code: "key_not_rollable", message: expect.stringMatching(/revoked/) });
    const short = await keys.create(account.id, { name: "trial", scopes: ["counts:read"], expiresAt: now() + HOUR }, ALL_SCOPES, source());
    const start = h.clock.now;
    try {
      h.clock.now = start + HOUR;
      await expect(keys.roll(account.id, short.record.id, 60, ALL_SCOPES, source())).rejects.toMatchObject({ code: "key_not_rollable", message: expect.stringMatching(/expired/) });
      // One moment before its expiry it still rolls (the clock is the caller's).
      h.clock.now = start + HOUR - 1;
      expect((await keys.roll(account.id, short.record.id, 60, ALL_SCOPES, source())).record.expiresAt).toBe(start + HOUR);
    } finally {
      h.clock.now = start;
    }
    expect(await h.db.prisma.apiKey.count({ where: { accountId: account.id } })).toBe(4);
  });

  it.skipIf(skip)("two rolls of one key at once: one new key, the other answers key_not_rollable", async () => {
    const account = await h.account();
    const [key] = await keys.list(account.id);
    const results = await Promise.allSettled([0, 1, 2, 3].map(() => keys.roll(account.id, key!.id, 3600, ALL_SCOPES, source())));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const failed of results.filter((r) => r.status === "rejected")) expect((failed.reason as KeyError).code).toBe("key_not_rollable");
    expect(await h.db.prisma.apiKey.count({ where: { accountId: account.id } })).toBe(2);
  });

  it.skipIf(skip)("the limit counts live keys only: revoked and expired keys free their place, and a roll at the limit is allowed", async () => {
    const account = await h.account();
    const made = [];
    for (let i = 1; i < MAX_KEYS - 1; i++) made.push(await keys.create(account.id, { name: `k${i}`, scopes: ["counts:read"], expiresAt: null }, ALL_SCOPES, source()));
    const short = await keys.create(account.id, { name: "short", scopes: ["counts:read"], expiresAt: now() + HOUR }, ALL_SCOPES, source());
    const tooMany = () => keys.create(account.id, { name: "one more", scopes: ["counts:read"], expiresAt: null }, ALL_SCOPES, source());
    await expect(tooMany()).rejects.toMatchObject({ code: "too_many_keys" });
    // A roll replaces a key: allowed at the limit (for its grace both keys work).
    const rolled = await keys.roll(account.id, made[0]!.record.id, 60, ALL_SCOPES, source());
    await expect(tooMany()).rejects.toMatchObject({ code: "too_many_keys" });
    // 51 live keys until the grace ends; two revoked ones bring it to 49.
    await keys.revoke(account.id, made[1]!.record.id, ALL_SCOPES, source());
    await expect(tooMany()).rejects.toMatchObject({ code: "too_many_keys" });
    await keys.revoke(account.id, made[2]!.record.id, ALL_SCOPES, source());
    const freed = await tooMany();
    await expect(tooMany()).rejects.toMatchObject({ code: "too_many_keys" });
    const start = h.clock.now;
    try {
      // The short key's expiry and the rolled key's grace free two places.
      h.clock.now = start + HOUR;
      await tooMany();
      await tooMany();
      await expect(tooMany()).rejects.toMatchObject({ code: "too_many_keys" });
    } finally {
      h.clock.now = start;
    }
    expect(rolled.record.id).not.toBe(freed.record.id);
    expect(short.record.expiresAt).toBe(start + HOUR);
    expect(await h.db.prisma.apiKey.count({ where: { accountId: account.id } })).toBe(MAX_KEYS + 4);
  });

  it.skipIf(skip)("another account's key is not found by any verb", async () => {
    const mine = await h.account();
    const theirs = await h.account();
    const [their] = await keys.list(theirs.id);
    for (const attempt of [
      () => keys.get(mine.id, their!.id),
      () => keys.roll(mine.id, their!.id, 0, ALL_SCOPES, source()),
      () => keys.revoke(mine.id, their!.id, ALL_SCOPES, source()),
      () => keys.reveal(mine.id, their!.id, ALL_SCOPES),
    ]) {
      await expect(attempt()).rejects.toMatchObject({ code: "key_not_found" });
    }
    expect((await keys.get(theirs.id, their!.id)).revokedAt).toBeNull();
  });

  it.skipIf(skip)("the key carried over is revealed once, even to two requests at once, and its prefix is filled when listed", async () => {
    const account = await h.account();
    const [carried] = await keys.list(account.id);
    const value = "ab12cd34".padEnd(40, "0");
    await h.db.prisma.apiKey.update({ where: { id: carried!.id }, data: { keyHash: hashApiKey(value), prefix: null, sealed: vault.encrypt(value) } });
    expect((await keys.list(account.id))[0]).toMatchObject({ prefix: "ab12cd34", revealable: true });
    // A member whose role cannot grant every scope does not see the all-scope key, and it stays revealable.
    await expect(keys.reveal(account.id, carried!.id, grantableScopes("developer"))).rejects.toMatchObject({ code: "insufficient_scope" });
    const both = await Promise.all([keys.reveal(account.id, carried!.id, ALL_SCOPES), keys.reveal(account.id, carried!.id, ALL_SCOPES)]);
    expect(both.filter((key) => key === value)).toHaveLength(1);
    expect(both.filter((key) => key === null)).toHaveLength(1);
    expect((await rowOf(carried!.id)).sealed).toBeNull();
    expect(await keys.reveal(account.id, carried!.id, ALL_SCOPES)).toBeNull();
  });

  it.skipIf(skip)("a roll and a revoke each queue their notice in the same transaction, and the account gets them", async () => {
    const account = await h.account();
    const [key] = await keys.list(account.id);
    const notices = keyNotices(h.mail.notices, now());
    const rolled = await keys.roll(account.id, key!.id, 86_400, ALL_SCOPES, source(), notices.rolled);
    await keys.revoke(account.id, rolled.record.id, ALL_SCOPES, source(), notices.revoked);
    expect(await h.mailTo(account.email)).toEqual([
      { kind: "api_key_rolled", status: "pending" },
      { kind: "api_key_revoked", status: "pending" },
    ]);
    await h.deliver();
    const [rolledMail, revokedMail] = h.received(account.email);
    expect(rolledMail!.subject).toBe("Your sharecount API key was rolled");
    expect(rolledMail!.text).toContain('"Default"');
    expect(rolledMail!.text).toContain("The old key keeps working until 2 March 2026 at 09:00 UTC");
    expect(rolledMail!.text).not.toContain(rolled.key);
    expect(String(rolledMail!.html)).toContain(`${ORIGIN}/dashboard/keys`);
    expect(revokedMail!.subject).toBe("A sharecount API key was revoked");
    // And the audit log has both, by the actor who made them, in the same transactions.
    const events = await h.db.prisma.auditEvent.findMany({ where: { accountId: account.id }, orderBy: { action: "asc" } });
    expect(events.map((e) => [e.action, e.actorType, JSON.parse(e.changes)])).toEqual([
      ["key.revoked", "system", { id: rolled.record.id, name: "Default" }],
      ["key.rolled", "system", { id: key!.id, name: "Default", new_id: rolled.record.id, grace_seconds: 86_400 }],
    ]);
  });

  it.skipIf(skip)("no notice can be queued, no roll and no revoke: the key stays as it was", async () => {
    const account = await h.account();
    const [key] = await keys.list(account.id);
    const broken = keyNotices(accountMailOf(h.db.prisma, h.outbox, "not a url").notices, now());
    await expect(keys.roll(account.id, key!.id, 0, ALL_SCOPES, source(), broken.rolled)).rejects.toThrow();
    await expect(keys.revoke(account.id, key!.id, ALL_SCOPES, source(), broken.revoked)).rejects.toThrow();
    expect(await keys.list(account.id)).toEqual([key]);
    expect(await h.mailTo(account.email)).toEqual([]);
    expect(await h.db.prisma.auditEvent.count({ where: { accountId: account.id } })).toBe(0);
  });
});
