import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { systemSource, userActor, type AuditSource } from "../../lib/audit/actor.ts";
import { AuditStore } from "../../lib/audit/audit-store.ts";
import { recordAudit } from "../../lib/audit/record.ts";
import { openAlerts } from "../../lib/alerts/open-alerts.ts";
import { webhookLimits } from "../../lib/webhooks/webhook-limits.ts";
import { createEndpoint, deleteEndpoint, updateEndpoint, type WebhookContext } from "../../lib/webhooks/webhook-endpoints.ts";
import { replaceWhitelist } from "../../lib/whitelist/replace-whitelist.ts";
import { accountMailHarness, ORIGIN } from "../support/account-mail.ts";
import { postgresSkipReason, postgresStoreDatabase, sqliteStoreDatabase } from "../support/stores.ts";
import { linkIn } from "../support/smtp.ts";

/** Each audited change, on both databases: its event is written exactly when the change commits. */
const skipPostgres = (await postgresSkipReason("test/audit/audit-events.test.ts")) !== undefined;
const drivers = [
  { name: "SQLite", database: sqliteStoreDatabase, skip: false },
  { name: "PostgreSQL", database: postgresStoreDatabase, skip: skipPostgres },
];

const CLIENT = { address: "203.0.113.77", userAgent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0" };

describe.each(drivers)("audit events on $name", ({ database, skip }) => {
  const h = accountMailHarness(database, skip);
  const log = () => new AuditStore(h.db.prisma);
  const eventsOf = (accountId: string) => log().page(accountId, {}, 100);
  const by = (user: { id: string; email: string }): AuditSource => ({ actor: userActor(user), client: CLIENT, at: h.clock.now });

  it.skipIf(skip)("a whitelist change records counts, entries added and removed, and enforcement; none when nothing changed", async () => {
    const user = await h.account();
    await h.accounts.setWhitelist(user.email, ["a.example.com", "b.example.com", "c.example.com"], false, by(user));
    h.clock.now += 1000;
    await h.accounts.setWhitelist(user.email, ["a.example.com", "d.example.com", "e.example.com", "c.example.com"], true, by(user));
    await h.accounts.setWhitelist(user.email, ["a.example.com", "d.example.com", "e.example.com", "c.example.com"], true, by(user));
    const [latest, first, ...rest] = await eventsOf(user.id);
    expect(rest).toEqual([]);
    expect(first!.changes).toMatchObject({ before: 0, after: 3, added_count: 3, removed_count: 0, enabled_before: false, enabled: false });
    expect(latest).toMatchObject({
      action: "whitelist.changed",
      actor: { type: "user", id: user.id, label: user.email },
      ip: "203.0.113.0/24",
      userAgent: CLIENT.userAgent,
      changes: { before: 3, after: 4, added: ["d.example.com", "e.example.com"], removed: ["b.example.com"], added_count: 2, removed_count: 1, enabled_before: false, enabled: true },
    });
  });

  it.skipIf(skip)("a change rolled back takes its event with it; an event that cannot be written rolls the change back", async () => {
    const user = await h.account();
    const failing = h.db.prisma.$transaction(async (tx) => {
      await replaceWhitelist(tx, user.id, new Set(["kept-out.example.com"]), true, by(user));
      throw new Error("the caller's next write failed");
    });
    await expect(failing).rejects.toThrow("next write failed");
    expect(await eventsOf(user.id)).toEqual([]);
    expect(await h.db.prisma.whitelistDomain.count({ where: { accountId: user.id } })).toBe(0);

    // An event outside its schema cannot be written, and the whitelist it came with is not written either.
    const invalid = h.db.prisma.$transaction(async (tx) => {
      await tx.whitelistDomain.create({ data: { accountId: user.id, domain: "never.example.com" } });
      await recordAudit(tx, { accountId: user.id, ...by(user), action: "webhook.created", changes: { endpoint_id: "we_1", host: "h".repeat(254), events: [] } });
    });
    await expect(invalid).rejects.toThrow();
    expect(await h.db.prisma.whitelistDomain.count({ where: { accountId: user.id } })).toBe(0);
    expect(await eventsOf(user.id)).toEqual([]);

    // A value shaped like a webhook secret or an API key: redacted in the event, and the change it came with is made.
    const secret = `whsec_${"A".repeat(32)}`;
    const key = "0123456789abcdef0123456789abcdef01234567";
    await h.db.prisma.$transaction(async (tx) => {
      await tx.whitelistDomain.create({ data: { accountId: user.id, domain: "kept.example.com" } });
      await recordAudit(tx, { accountId: user.id, ...by(user), action: "webhook.created", changes: { endpoint_id: "we_1", host: secret, events: [] } });
      await recordAudit(tx, { accountId: user.id, ...by(user), at: h.clock.now + 1, action: "member.invited", changes: { email: `${key}@example.com`, role: "viewer" } });
    });
    expect(await h.db.prisma.whitelistDomain.count({ where: { accountId: user.id } })).toBe(1);
    expect(await eventsOf(user.id)).toMatchObject([
      { action: "member.invited", changes: { email: "[redacted]@example.com", role: "viewer" } },
      { action: "webhook.created", changes: { endpoint_id: "we_1", host: "[redacted]", events: [] } },
    ]);
    const rows = JSON.stringify(await h.db.prisma.auditEvent.findMany({ where: { accountId: user.id } }));
    expect(rows).not.toContain(secret);
    expect(rows).not.toContain(key);
    expect(rows).not.toContain("whsec_");
  });

  it.skipIf(skip)("a plan change records from and to with the admin command line as actor; the same plan or an unknown one records nothing", async () => {
    const user = await h.account();
    await h.accounts.setPlan(user.email, "business", systemSource(h.clock.now));
    await h.accounts.setPlan(user.email, "business", systemSource(h.clock.now));
    await expect(h.accounts.setPlan(user.email, "no-such-plan", systemSource(h.clock.now))).rejects.toThrow("Unknown plan");
    const events = await eventsOf(user.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ action: "plan.changed", actor: { type: "system", id: null }, ip: null, changes: { from: "free", to: "business" } });
  });

  it.skipIf(skip)("a password change records how and how many sessions ended, and nothing when its notice fails", async () => {
    const user = await h.account("an old long password");
    const change = { audit: by(user), via: "settings" } as const;
    await expect(h.accounts.setPassword(user.id, "a new long password", { ...change, within: () => Promise.reject(new Error("no room")) })).rejects.toThrow("no room");
    expect(await eventsOf(user.id)).toEqual([]);
    await h.accounts.setPassword(user.id, "a new long password", change);
    const [event] = await eventsOf(user.id);
    expect(event).toMatchObject({ action: "password.changed", actor: { type: "user", id: user.id }, changes: { via: "settings", other_sessions_ended: 0 } });
    expect(JSON.stringify(event)).not.toContain("a new long password");
  });

  it.skipIf(skip)("an address change records old and new when its link is opened; a link for a taken address records nothing", async () => {
    const user = await h.account();
    const to = `moved-${randomBytes(3).toString("hex")}@example.com`;
    await h.mail.change.request(user.id, to, h.clock.now);
    const token = await linkToken(to);
    expect(await eventsOf(user.id)).toEqual([]);
    expect(await h.mail.change.confirm(token, h.clock.now, CLIENT)).toEqual({ ok: true, email: to });
    expect(await eventsOf(user.id)).toMatchObject([{ action: "email.changed", actor: { type: "user", label: to }, changes: { from: user.email, to } }]);

    const other = await h.account();
    const third = await h.account();
    const contested = `contested-${randomBytes(3).toString("hex")}@example.com`;
    await h.mail.change.request(other.id, contested, h.clock.now);
    const otherToken = await linkToken(contested);
    await h.mail.change.request(third.id, contested, h.clock.now);
    const thirdToken = await linkToken(contested);
    expect((await h.mail.change.confirm(otherToken, h.clock.now, CLIENT)).ok).toBe(true);
    expect(await h.mail.change.confirm(thirdToken, h.clock.now, CLIENT)).toEqual({ ok: false, reason: "taken" });
    expect(await eventsOf(third.id)).toEqual([]);
  });

  it.skipIf(skip)("webhook endpoints: added, changed and deleted are recorded with host and events, never the secret or the URL's path", async () => {
    const user = await h.account();
    const context: WebhookContext = { alerts: openAlerts(h.db.prisma, randomBytes(32), "https://sharecount.example.com"), allowPrivateHosts: false, limits: webhookLimits(null) };
    const body = { url: "https://hooks.example.com/in/receiver-token-123", events: ["bulk.completed" as const], format: "standard" as const };
    const { endpoint, secret } = await createEndpoint(context, user.id, body, by(user));
    h.clock.now += 1000;
    await updateEndpoint(context, user.id, endpoint.id, { url: "https://other.example.net/in", enabled: false }, by(user));
    await expect(updateEndpoint(context, user.id, "we_missing", { enabled: true }, by(user))).rejects.toThrow();
    h.clock.now += 1000;
    await deleteEndpoint(context, user.id, endpoint.id, by(user));
    await expect(deleteEndpoint(context, user.id, endpoint.id, by(user))).rejects.toThrow();
    const events = (await eventsOf(user.id)).reverse();
    expect(events.map((e) => [e.action, e.changes])).toEqual([
      ["webhook.created", { endpoint_id: endpoint.id, host: "hooks.example.com", events: ["bulk.completed"] }],
      ["webhook.updated", { endpoint_id: endpoint.id, host: "other.example.net", events: ["bulk.completed"], fields: ["url", "enabled"], enabled: false, host_before: "hooks.example.com" }],
      ["webhook.deleted", { endpoint_id: endpoint.id, host: "other.example.net", events: ["bulk.completed"] }],
    ]);
    const stored = JSON.stringify(await h.db.prisma.auditEvent.findMany({ where: { accountId: user.id } }));
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain("receiver-token-123");
  });

  it.skipIf(skip)("an account's events go with the account", async () => {
    const user = await h.account();
    await h.accounts.setPlan(user.email, "plus", systemSource(h.clock.now));
    await h.db.prisma.account.delete({ where: { id: user.id } });
    expect(await h.db.prisma.auditEvent.count({ where: { accountId: user.id } })).toBe(0);
  });

  /** The token of the last change link mailed to `to`, as received over SMTP. */
  async function linkToken(to: string): Promise<string> {
    await h.deliver();
    return new URL(linkIn(h.received(to).at(-1)!, `${ORIGIN}/change-email`)).searchParams.get("token")!;
  }
});
