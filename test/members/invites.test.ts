import { createHash, randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { userActor } from "../../lib/audit/actor.ts";
import { RateLimiterMemory } from "rate-limiter-flexible";
import { INVITE_LIMITS, inviteLimitKeys } from "../../lib/members/invite-limits.ts";
import { Invites, INVITE_DAYS, type TakeInviteMail } from "../../lib/members/invites.ts";
import { MemberError, type MemberErrorCode } from "../../lib/members/member-errors.ts";
import { Members, type MemberActor } from "../../lib/members/members.ts";
import { MAX_MEMBERS, type Role } from "../../lib/members/roles.ts";
import { accountMailHarness, ORIGIN } from "../support/account-mail.ts";
import { postgresSkipReason, postgresStoreDatabase, sqliteStoreDatabase } from "../support/stores.ts";

/** Invitations (lib/members/invites.ts) on both databases: the mailed single-use link, its 7 days, who may invite whom, and the limit. */
const skipPostgres = (await postgresSkipReason("test/members/invites.test.ts")) !== undefined;
const drivers = [
  { name: "SQLite", database: sqliteStoreDatabase, skip: false },
  { name: "PostgreSQL", database: postgresStoreDatabase, skip: skipPostgres },
];

const DAY = 24 * 3_600_000;

describe.each(drivers)("invites on $name", ({ database, skip }) => {
  const h = accountMailHarness(database, skip);
  let invites: Invites;
  beforeAll(() => {
    if (!skip) invites = new Invites(h.db.prisma, h.outbox, ORIGIN);
  });
  type User = { id: string; email: string };
  /** `user` asking now; each change a second after the last, so the audit log has them in order. */
  const sourceOf = (user: User) => {
    h.clock.now += 1000;
    return { actor: userActor(user), client: { address: "198.51.100.7", userAgent: "test" }, at: h.clock.now };
  };
  const actor = (user: User): MemberActor => ({ userId: user.id, source: sourceOf(user) });
  const accept = (token: string, user: User) => invites.accept(token, user, sourceOf(user));
  const invite = (account: User, by: User, email: string, role: Role = "developer") => invites.create(account.id, actor(by), { email, role });
  const fresh = () => `invited-${randomBytes(4).toString("hex")}@example.com`;

  /** The invite mails queued to `to`, oldest first, with their opened data. */
  async function mailsTo(to: string) {
    const rows = await h.db.prisma.mailMessage.findMany({ where: { recipient: to }, orderBy: { createdAt: "asc" } });
    return rows.map((row) => ({ kind: row.kind, accountId: row.accountId, data: h.outbox.open(row.payload!) as { link: string; account: string; inviter: string; role: string; days: number } }));
  }
  /** The token of the last link mailed to `to`: the link's last path segment. */
  async function tokenTo(to: string) {
    const link = (await mailsTo(to)).at(-1)!.data.link;
    expect(link.startsWith(`${ORIGIN}/dashboard/invite/`)).toBe(true);
    return new URL(link).pathname.split("/").at(-1)!;
  }

  async function refused(attempt: Promise<unknown>, code: MemberErrorCode) {
    const error = await attempt.then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(MemberError);
    expect((error as MemberError).code).toBe(code);
  }

  const actions = (accountId: string) => h.db.prisma.auditEvent.findMany({ where: { accountId }, orderBy: { time: "asc" } });

  it.skipIf(skip)("an invite queues one team_invite mail and its audit event with it; only the token's SHA-256 is stored", async () => {
    const owner = await h.account();
    const email = fresh();
    const made = await invite(owner, owner, email.toUpperCase(), "admin");
    expect(made).toMatchObject({ email, role: "admin", state: "open", invitedBy: owner.email, expiresAt: new Date(h.clock.now + INVITE_DAYS * DAY).toISOString() });
    const mails = await mailsTo(email);
    expect(mails).toEqual([{ kind: "team_invite", accountId: owner.id, data: { link: expect.any(String), account: owner.email, inviter: owner.email, role: "Admin", days: 7 } }]);
    const token = await tokenTo(email);
    const row = await h.db.prisma.accountInvite.findUniqueOrThrow({ where: { id: made.id } });
    expect(row.tokenHash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(row.tokenHash).not.toBe(token);
    expect(JSON.stringify(row)).not.toContain(token);
    const [event] = await actions(owner.id);
    expect(event).toMatchObject({ action: "member.invited", actorType: "user", actorId: owner.id, actorLabel: owner.email, ip: "198.51.100.0/24" });
    expect(JSON.parse(event!.changes)).toEqual({ email, role: "admin" });
    expect(await invites.preview(token, h.clock.now)).toEqual({ account: owner.email, invitedBy: owner.email, email, role: "admin", state: "open" });
    expect(await invites.list(owner.id, h.clock.now)).toEqual([made]);
  });

  it.skipIf(skip)("no mail can be queued, no invite and no event: they are one transaction", async () => {
    const owner = await h.account();
    const email = fresh();
    await expect(new Invites(h.db.prisma, h.outbox, "not a url").create(owner.id, actor(owner), { email, role: "viewer" })).rejects.toThrow();
    expect(await h.db.prisma.accountInvite.count({ where: { accountId: owner.id } })).toBe(0);
    expect(await mailsTo(email)).toEqual([]);
    expect(await actions(owner.id)).toEqual([]);
  });

  it.skipIf(skip)("accepting joins with the invite's role and is audited; the same link again is closed", async () => {
    const owner = await h.account();
    const joiner = await h.account();
    await invite(owner, owner, joiner.email, "viewer");
    const token = await tokenTo(joiner.email);
    expect(await accept(token, joiner)).toBe(owner.id);
    expect(await new Members(h.db.prisma).roleOf(owner.id, joiner.id)).toBe("viewer");
    const joined = (await actions(owner.id)).at(-1)!;
    expect(joined).toMatchObject({ action: "member.joined", actorType: "user", actorId: joiner.id, actorLabel: joiner.email });
    expect(JSON.parse(joined.changes)).toEqual({ user_id: joiner.id, email: joiner.email, role: "viewer" });
    const other = await h.account();
    await refused(accept(token, other), "invite_closed");
    await refused(accept(token, joiner), "invite_closed");
    expect((await invites.preview(token, h.clock.now))?.state).toBe("used");
    expect(await invites.list(owner.id, h.clock.now)).toEqual([]);
    expect(await new Members(h.db.prisma).roleOf(owner.id, other.id)).toBeNull();
    await refused(accept("no-such-token", other), "not_found");
  });

  it.skipIf(skip)("a link works for 7 days by the caller's clock, then is closed", async () => {
    const owner = await h.account();
    const [early, late] = [await h.account(), await h.account()];
    await invite(owner, owner, early.email);
    await invite(owner, owner, late.email);
    const start = h.clock.now;
    h.clock.now = start + INVITE_DAYS * DAY - 10_000;
    expect(await accept(await tokenTo(early.email), early)).toBe(owner.id);
    h.clock.now = start + INVITE_DAYS * DAY;
    const token = await tokenTo(late.email);
    expect((await invites.preview(token, h.clock.now))?.state).toBe("expired");
    await refused(accept(token, late), "invite_closed");
    expect(await new Members(h.db.prisma).roleOf(owner.id, late.id)).toBeNull();
    // Still listed (as expired) for a week, so it can be sent again.
    expect((await invites.list(owner.id, h.clock.now)).map((i) => [i.email, i.state])).toEqual([[late.email, "expired"]]);
  });

  it.skipIf(skip)("a revoked link is closed", async () => {
    const owner = await h.account();
    const joiner = await h.account();
    const made = await invite(owner, owner, joiner.email);
    await invites.revoke(owner.id, actor(owner), made.id);
    await refused(accept(await tokenTo(joiner.email), joiner), "invite_closed");
    await refused(invites.revoke(owner.id, actor(owner), made.id), "not_found");
    expect(await invites.list(owner.id, h.clock.now)).toEqual([]);
  });

  it.skipIf(skip)("resending mails a new link and 7 more days; the old link stops working", async () => {
    const owner = await h.account();
    const joiner = await h.account();
    const made = await invite(owner, owner, joiner.email);
    const old = await tokenTo(joiner.email);
    h.clock.now += 6 * DAY;
    const again = await invites.resend(owner.id, actor(owner), made.id);
    expect(again.id).not.toBe(made.id);
    expect(again.expiresAt).toBe(new Date(h.clock.now + INVITE_DAYS * DAY).toISOString());
    expect((await mailsTo(joiner.email)).map((m) => m.kind)).toEqual(["team_invite", "team_invite"]);
    const renewed = await tokenTo(joiner.email);
    expect(renewed).not.toBe(old);
    await refused(accept(old, joiner), "invite_closed");
    h.clock.now += 2 * DAY;
    expect(await accept(renewed, joiner)).toBe(owner.id);
  });

  it.skipIf(skip)("a member is not invited again, and cannot join twice by an older invite", async () => {
    const owner = await h.account();
    const member = await h.account();
    await invite(owner, owner, member.email);
    const token = await tokenTo(member.email);
    await Members.add(h.db.prisma, owner.id, member.id, "viewer", h.clock.now);
    await refused(invite(owner, owner, member.email.toUpperCase()), "already_member");
    await refused(invite(owner, owner, owner.email), "already_member");
    await refused(accept(token, member), "already_member");
    // Refused as a whole: the link is not used up.
    expect((await invites.preview(token, h.clock.now))?.state).toBe("open");
    await refused(invite(owner, owner, "not an address"), "invalid_input");
  });

  it.skipIf(skip)("developers and viewers do not invite; admins invite anyone but an owner; owners invite owners", async () => {
    const owner = await h.account();
    const [admin, dev, viewer] = [await h.account(), await h.account(), await h.account()];
    await Members.add(h.db.prisma, owner.id, admin.id, "admin", h.clock.now);
    await Members.add(h.db.prisma, owner.id, dev.id, "developer", h.clock.now);
    await Members.add(h.db.prisma, owner.id, viewer.id, "viewer", h.clock.now);
    await refused(invite(owner, dev, fresh(), "viewer"), "forbidden");
    await refused(invite(owner, viewer, fresh(), "viewer"), "forbidden");
    await refused(invite(owner, await h.account(), fresh(), "viewer"), "forbidden");
    await refused(invite(owner, admin, fresh(), "owner"), "forbidden");
    const byAdmin = await invite(owner, admin, fresh(), "admin");
    expect(byAdmin.invitedBy).toBe(admin.email);
    const ownerInvite = await invite(owner, owner, fresh(), "owner");
    // An admin neither resends nor revokes an owner's invite.
    await refused(invites.resend(owner.id, actor(admin), ownerInvite.id), "forbidden");
    await refused(invites.revoke(owner.id, actor(admin), ownerInvite.id), "forbidden");
    await refused(invites.revoke(owner.id, actor(dev), byAdmin.id), "forbidden");
    expect((await invites.list(owner.id, h.clock.now)).map((i) => i.role).sort()).toEqual(["admin", "owner"]);
    expect((await actions(owner.id)).map((e) => e.action)).toEqual(["member.invited", "member.invited"]);
  });

  /** An account with `count` members in all (its holder and count - 1 users inserted at once). */
  async function accountWith(count: number) {
    const owner = await h.account();
    const users = Array.from({ length: count - 1 }, (_, i) => ({ id: `${owner.id}-u${i}`, email: `${owner.id}-u${i}@example.com`, planName: "free" }));
    await h.db.prisma.account.createMany({ data: users });
    await h.db.prisma.accountMember.createMany({ data: users.map((u) => ({ accountId: owner.id, userId: u.id, role: "viewer", createdAt: new Date(h.clock.now) })) });
    return owner;
  }

  it.skipIf(skip)(`at most ${MAX_MEMBERS} members and open invites, also when several invite at once`, async () => {
    const owner = await accountWith(MAX_MEMBERS - 3);
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => invite(owner, owner, fresh())));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(3);
    for (const failed of results.filter((r) => r.status === "rejected")) expect((failed.reason as MemberError).code).toBe("too_many_members");
    const open = await invites.list(owner.id, h.clock.now);
    // Inviting an address again replaces its invite, so it fits; revoking frees a place.
    await invite(owner, owner, open[0]!.email);
    await refused(invite(owner, owner, fresh()), "too_many_members");
    await invites.revoke(owner.id, actor(owner), open[1]!.id);
    await invite(owner, owner, fresh());
    expect((await h.db.prisma.accountMember.count({ where: { accountId: owner.id } })) + (await invites.list(owner.id, h.clock.now)).length).toBe(MAX_MEMBERS);
  });

  it.skipIf(skip)("resending an expired invite does not go past the limit", async () => {
    const owner = await accountWith(MAX_MEMBERS - 2);
    const lapsed = await invite(owner, owner, fresh());
    h.clock.now += INVITE_DAYS * DAY;
    await invite(owner, owner, fresh());
    await invite(owner, owner, fresh());
    await refused(invites.resend(owner.id, actor(owner), lapsed.id), "too_many_members");
    expect((await invites.list(owner.id, h.clock.now)).filter((i) => i.state === "open")).toHaveLength(2);
  });

  it.skipIf(skip)("two people accepting one link at once: exactly one joins", async () => {
    const owner = await h.account();
    const [a, b] = [await h.account(), await h.account()];
    const email = fresh();
    await invite(owner, owner, email, "developer");
    const token = await tokenTo(email);
    const results = await Promise.allSettled([accept(token, a), accept(token, b)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const failed = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect((failed.reason as MemberError).code).toBe("invite_closed");
    expect(await h.db.prisma.accountMember.count({ where: { accountId: owner.id } })).toBe(2);
    expect((await actions(owner.id)).filter((e) => e.action === "member.joined")).toHaveLength(1);
  });

  /** The invite limits (lib/members/invite-limits.ts) in this process's memory, taken as the dashboard's takeInviteMail takes them. */
  function inviteLimits() {
    const memory = (limit: keyof typeof INVITE_LIMITS) =>
      new RateLimiterMemory({ keyPrefix: `${INVITE_LIMITS[limit].name}-${randomBytes(4).toString("hex")}`, points: INVITE_LIMITS[limit].points, duration: INVITE_LIMITS[limit].seconds });
    const limiters = { perAccount: memory("perAccount"), perAddress: memory("perAddress") };
    const log: string[] = [];
    const take = (account: User): TakeInviteMail => async (email) => {
      const keys = inviteLimitKeys(account.id, email);
      try {
        await limiters.perAddress.consume(keys.perAddress);
      } catch {
        log.push(`refused ${email}`);
        throw new Error("rate_limited");
      }
      await limiters.perAccount.consume(keys.perAccount);
      log.push(`took ${email}`);
      return async () => {
        await limiters.perAddress.reward(keys.perAddress, 1);
        await limiters.perAccount.reward(keys.perAccount, 1);
        log.push(`gave back ${email}`);
      };
    };
    return { take, log };
  }

  it.skipIf(skip)("the invite limits are taken only for an invite that passed every check", async () => {
    const { take, log } = inviteLimits();
    const owner = await h.account();
    const [admin, dev, member] = [await h.account(), await h.account(), await h.account()];
    await Members.add(h.db.prisma, owner.id, admin.id, "admin", h.clock.now);
    await Members.add(h.db.prisma, owner.id, dev.id, "developer", h.clock.now);
    await Members.add(h.db.prisma, owner.id, member.id, "viewer", h.clock.now);
    const target = fresh();
    const limited = (by: User, email: string, role: Role) => invites.create(owner.id, actor(by), { email, role }, take(owner));
    // Far more refusals than the address's 3 a day: none of them is charged.
    for (let i = 0; i < 4; i++) {
      await refused(limited(owner, `${target}>`, "viewer"), "invalid_input");
      await refused(limited(owner, target, "superuser" as Role), "invalid_input");
      await refused(limited(dev, target, "viewer"), "forbidden");
      await refused(limited(admin, target, "owner"), "forbidden");
      await refused(limited(owner, member.email, "viewer"), "already_member");
    }
    expect(log).toEqual([]);
    await limited(owner, target.toUpperCase(), "viewer");
    expect(log).toEqual([`took ${target}`]);
    // A resend of an invite that is not there, or by someone who may not, takes nothing either.
    await refused(invites.resend(owner.id, actor(owner), `inv_${"0".repeat(24)}`, take(owner)), "not_found");
    const open = (await invites.list(owner.id, h.clock.now))[0]!;
    await refused(invites.resend(owner.id, actor(dev), open.id, take(owner)), "forbidden");
    expect(log).toEqual([`took ${target}`]);
  });

  it.skipIf(skip)("the address's limit is each account's own: three a day from one account does not stop another's", async () => {
    const { take, log } = inviteLimits();
    const [a, b] = [await h.account(), await h.account()];
    const target = fresh();
    const first = await invites.create(a.id, actor(a), { email: target, role: "viewer" }, take(a));
    await invites.resend(a.id, actor(a), first.id, take(a));
    await invites.create(a.id, actor(a), { email: target, role: "developer" }, take(a));
    const refusal = invites.create(a.id, actor(a), { email: target, role: "admin" }, take(a));
    await expect(refusal).rejects.toThrow("rate_limited");
    // The refused invite changed nothing: the last open invite to the address is still A's developer one, mailed three times.
    expect((await invites.list(a.id, h.clock.now)).map((i) => [i.email, i.role])).toEqual([[target, "developer"]]);
    expect(await mailsTo(target)).toHaveLength(3);
    // Account B is not blocked by A's use of the address.
    await invites.create(b.id, actor(b), { email: target, role: "viewer" }, take(b));
    expect(log).toEqual([`took ${target}`, `took ${target}`, `took ${target}`, `refused ${target}`, `took ${target}`]);
    expect(inviteLimitKeys(a.id, ` ${target.toUpperCase()}`).perAddress).toBe(`${a.id}:${target}`);
    expect(inviteLimitKeys(a.id, target).perAddress).not.toBe(inviteLimitKeys(b.id, target).perAddress);
  });

  it.skipIf(skip)("a mail taken for an invite whose write then fails is given back", async () => {
    const { take, log } = inviteLimits();
    const owner = await h.account();
    const email = fresh();
    await expect(new Invites(h.db.prisma, h.outbox, "not a url").create(owner.id, actor(owner), { email, role: "viewer" }, take(owner))).rejects.toThrow();
    expect(log).toEqual([`took ${email}`, `gave back ${email}`]);
    expect(await h.db.prisma.accountInvite.count({ where: { accountId: owner.id } })).toBe(0);
  });

  it.skipIf(skip)("an address that looks like an API key is invited; the audit event redacts the key-shaped part", async () => {
    const owner = await h.account();
    const hex = randomBytes(20).toString("hex");
    const made = await invite(owner, owner, `${hex}@example.com`, "viewer");
    expect(made.email).toBe(`${hex}@example.com`);
    const events = await actions(owner.id);
    expect(events.map((e) => [e.action, JSON.parse(e.changes)])).toEqual([["member.invited", { email: "[redacted]@example.com", role: "viewer" }]]);
    expect(JSON.stringify(events)).not.toContain(hex);
  });
});
