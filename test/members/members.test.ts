import { describe, expect, it } from "vitest";
import { userActor } from "../../lib/audit/actor.ts";
import { MemberError, type MemberErrorCode } from "../../lib/members/member-errors.ts";
import { Members, type MemberActor } from "../../lib/members/members.ts";
import { allows, NEEDS, ROLES, type Need, type Role } from "../../lib/members/roles.ts";
import { accountMailHarness } from "../support/account-mail.ts";
import { postgresSkipReason, postgresStoreDatabase, sqliteStoreDatabase } from "../support/stores.ts";

/** The member verbs (lib/members/members.ts) on both databases: who may change whom, the owner that always stays, and their audit. */
const skipPostgres = (await postgresSkipReason("test/members/members.test.ts")) !== undefined;
const drivers = [
  { name: "SQLite", database: sqliteStoreDatabase, skip: false },
  { name: "PostgreSQL", database: postgresStoreDatabase, skip: skipPostgres },
];

const MINUTE = 60_000;

describe("roles", () => {
  // Each need's least role, written out again so a change to NEEDS or the ranking shows here.
  const least: Record<Need, Role> = { read: "viewer", self: "viewer", work: "developer", keys: "developer", settings: "admin", members: "admin", export: "admin", ownership: "owner" };

  it("names every need", () => {
    expect(Object.keys(NEEDS).sort()).toEqual(Object.keys(least).sort());
  });

  it.each(ROLES)("%s is allowed exactly the needs whose least role it ranks at or above (owner > admin > developer > viewer)", (role) => {
    for (const need of Object.keys(NEEDS) as Need[]) {
      expect([need, allows(role, need)]).toEqual([need, ROLES.indexOf(role) <= ROLES.indexOf(least[need])]);
    }
  });

  it("a viewer only reads and manages itself; an owner may do everything", () => {
    expect((Object.keys(NEEDS) as Need[]).filter((need) => allows("viewer", need))).toEqual(["read", "self"]);
    expect((Object.keys(NEEDS) as Need[]).filter((need) => allows("developer", need))).toEqual(["read", "self", "work", "keys"]);
    expect((Object.keys(NEEDS) as Need[]).filter((need) => !allows("admin", need))).toEqual(["ownership"]);
    expect((Object.keys(NEEDS) as Need[]).every((need) => allows("owner", need))).toBe(true);
  });
});

describe.each(drivers)("members on $name", ({ database, skip }) => {
  const h = accountMailHarness(database, skip);
  const members = () => new Members(h.db.prisma);
  type User = { id: string; email: string };
  /** `user` asking now; each change a second after the last, so the audit log has them in order. */
  const actor = (user: User): MemberActor => {
    h.clock.now += 1000;
    return { userId: user.id, source: { actor: userActor(user), client: { address: "203.0.113.9", userAgent: "test" }, at: h.clock.now } };
  };

  /** A new account (its holder its owner) and one new user per role, each joined a minute after the last. */
  async function team(...roles: Role[]) {
    const holder = await h.account();
    const others: User[] = [];
    for (const role of roles) {
      const user = await h.account();
      h.clock.now += MINUTE;
      await Members.add(h.db.prisma, holder.id, user.id, role, h.clock.now);
      others.push(user);
    }
    return { holder, others };
  }

  async function refused(attempt: Promise<unknown>, code: MemberErrorCode) {
    const error = await attempt.then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(MemberError);
    expect((error as MemberError).code).toBe(code);
  }

  const audit = (accountId: string) =>
    h.db.prisma.auditEvent.findMany({ where: { accountId }, orderBy: { time: "asc" } }).then((rows) => rows.map((e) => ({ action: e.action, actorType: e.actorType, actorId: e.actorId, actorLabel: e.actorLabel, ip: e.ip, changes: JSON.parse(e.changes) })));

  it.skipIf(skip)("a new account has its holder as owner; list, roleOf and accountsOf see the members, the user's own account first", async () => {
    const { holder, others: [dev] } = await team("developer");
    const other = await team("viewer");
    await Members.add(h.db.prisma, other.holder.id, dev!.id, "admin", h.clock.now);
    const list = await members().list(holder.id);
    expect(list.map((m) => [m.email, m.role, m.holder])).toEqual([
      [holder.email, "owner", true],
      [dev!.email, "developer", false],
    ]);
    expect(Date.parse(list[1]!.joinedAt)).toBeGreaterThan(Date.parse(list[0]!.joinedAt));
    expect(await members().roleOf(holder.id, holder.id)).toBe("owner");
    expect(await members().roleOf(holder.id, dev!.id)).toBe("developer");
    expect(await members().roleOf(holder.id, other.holder.id)).toBeNull();
    const expected = [
      { accountId: holder.id, email: holder.email, role: "developer" },
      { accountId: other.holder.id, email: other.holder.email, role: "admin" },
    ].sort((a, b) => a.email.localeCompare(b.email));
    expect(await members().accountsOf(dev!.id)).toEqual([{ accountId: dev!.id, email: dev!.email, role: "owner" }, ...expected]);
  });

  it.skipIf(skip)("an admin gives developer and viewer, and each change is audited with its actor", async () => {
    const { holder, others: [admin, dev] } = await team("admin", "developer");
    const after = await members().setRole(holder.id, actor(admin!), dev!.id, "viewer");
    expect(after.find((m) => m.userId === dev!.id)?.role).toBe("viewer");
    await members().setRole(holder.id, actor(admin!), dev!.id, "developer");
    // The same role again changes nothing and is not an event.
    await members().setRole(holder.id, actor(admin!), dev!.id, "developer");
    expect(await members().roleOf(holder.id, dev!.id)).toBe("developer");
    const by = { action: "member.role_changed", actorType: "user", actorId: admin!.id, actorLabel: admin!.email, ip: "203.0.113.0/24" };
    expect(await audit(holder.id)).toEqual([
      { ...by, changes: { user_id: dev!.id, email: dev!.email, from: "developer", to: "viewer" } },
      { ...by, changes: { user_id: dev!.id, email: dev!.email, from: "viewer", to: "developer" } },
    ]);
  });

  it.skipIf(skip)("only an owner gives or takes the owner role; developers and viewers change no roles", async () => {
    const { holder, others: [admin, other, dev, viewer] } = await team("admin", "admin", "developer", "viewer");
    await refused(members().setRole(holder.id, actor(admin!), other!.id, "owner"), "forbidden");
    await refused(members().setRole(holder.id, actor(admin!), admin!.id, "owner"), "forbidden");
    await refused(members().setRole(holder.id, actor(admin!), holder.id, "admin"), "forbidden");
    await refused(members().setRole(holder.id, actor(dev!), viewer!.id, "developer"), "forbidden");
    await refused(members().setRole(holder.id, actor(viewer!), viewer!.id, "admin"), "forbidden");
    const outsider = await h.account();
    await refused(members().setRole(holder.id, actor(outsider), dev!.id, "viewer"), "forbidden");
    await refused(members().setRole(holder.id, actor(admin!), outsider.id, "viewer"), "not_found");
    expect((await members().list(holder.id)).map((m) => m.role)).toEqual(["owner", "admin", "admin", "developer", "viewer"]);
    await members().setRole(holder.id, actor(holder), other!.id, "owner");
    await members().setRole(holder.id, actor(other!), admin!.id, "owner");
    await members().setRole(holder.id, actor(admin!), other!.id, "developer");
    expect(await members().roleOf(holder.id, other!.id)).toBe("developer");
    expect(await audit(holder.id)).toHaveLength(3);
  });

  it.skipIf(skip)("the holder stays owner: no one changes their role, so the account always has an owner; other owners can step down", async () => {
    const { holder, others: [second] } = await team("owner");
    await refused(members().setRole(holder.id, actor(holder), holder.id, "admin"), "forbidden");
    await refused(members().setRole(holder.id, actor(second!), holder.id, "viewer"), "forbidden");
    await members().setRole(holder.id, actor(second!), second!.id, "admin");
    await refused(members().setRole(holder.id, actor(second!), second!.id, "owner"), "forbidden");
    await members().remove(holder.id, actor(second!), second!.id);
    expect(await members().list(holder.id)).toMatchObject([{ userId: holder.id, role: "owner", holder: true }]);
  });

  it.skipIf(skip)("two owners demoting each other at once: the holder stays owner", async () => {
    const { holder, others: [second] } = await team("owner");
    const results = await Promise.allSettled([
      members().setRole(holder.id, actor(holder), second!.id, "admin"),
      members().setRole(holder.id, actor(second!), holder.id, "admin"),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected"]);
    expect(((results[1] as PromiseRejectedResult).reason as MemberError).code).toBe("forbidden");
    expect(await members().roleOf(holder.id, holder.id)).toBe("owner");
  });

  it.skipIf(skip)("the holder is never removed, not even by another owner, and cannot leave", async () => {
    const { holder, others: [owner] } = await team("owner");
    await refused(members().remove(holder.id, actor(owner!), holder.id), "forbidden");
    await refused(members().remove(holder.id, actor(holder), holder.id), "forbidden");
    expect(await members().roleOf(holder.id, holder.id)).toBe("owner");
    expect(await audit(holder.id)).toEqual([]);
  });

  it.skipIf(skip)("a viewer cannot remove others but can leave; an admin removes others but not an owner", async () => {
    const { holder, others: [admin, owner, dev, viewer] } = await team("admin", "owner", "developer", "viewer");
    await refused(members().remove(holder.id, actor(viewer!), dev!.id), "forbidden");
    await refused(members().remove(holder.id, actor(dev!), viewer!.id), "forbidden");
    await refused(members().remove(holder.id, actor(admin!), owner!.id), "forbidden");
    await refused(members().remove(holder.id, actor(admin!), (await h.account()).id), "not_found");
    await members().remove(holder.id, actor(viewer!), viewer!.id);
    await members().remove(holder.id, actor(admin!), dev!.id);
    await members().remove(holder.id, actor(holder), owner!.id);
    expect((await members().list(holder.id)).map((m) => m.userId)).toEqual([holder.id, admin!.id]);
    // Gone from the account, not from their own.
    expect(await members().accountsOf(viewer!.id)).toEqual([{ accountId: viewer!.id, email: viewer!.email, role: "owner" }]);
    const removed = (by: User, user: User) => ({ action: "member.removed", actorType: "user", actorId: by.id, actorLabel: by.email, ip: "203.0.113.0/24", changes: { user_id: user.id, email: user.email } });
    expect(await audit(holder.id)).toEqual([removed(viewer!, viewer!), removed(admin!, dev!), removed(holder, owner!)]);
  });

  it.skipIf(skip)("removing a member clears the sessions that worked in that account, and only those", async () => {
    const { holder, others: [dev] } = await team("developer");
    const elsewhere = await team("viewer");
    await Members.add(h.db.prisma, elsewhere.holder.id, dev!.id, "viewer", h.clock.now);
    const expires = new Date(h.clock.now + 30 * 24 * 60 * MINUTE);
    const session = (name: string, userId: string, activeAccountId: string | null) =>
      h.db.prisma.session.create({ data: { sessionToken: `${userId}-${name}`, userId, expires, activeAccountId } });
    await session("in-team", dev!.id, holder.id);
    await session("in-team-2", dev!.id, holder.id);
    await session("elsewhere", dev!.id, elsewhere.holder.id);
    await session("own", dev!.id, null);
    await session("holder", holder.id, holder.id);
    await members().remove(holder.id, actor(holder), dev!.id);
    const sessions = await h.db.prisma.session.findMany({ where: { userId: { in: [dev!.id, holder.id] } } });
    expect(Object.fromEntries(sessions.map((s) => [s.sessionToken.slice(s.userId.length + 1), s.activeAccountId]))).toEqual({
      "in-team": null,
      "in-team-2": null,
      elsewhere: elsewhere.holder.id,
      own: null,
      holder: holder.id,
    });
  });

  it.skipIf(skip)("a refused change writes nothing: no role, no removal, no event", async () => {
    const { holder, others: [admin, owner] } = await team("admin", "owner");
    await refused(members().setRole(holder.id, actor(admin!), owner!.id, "viewer"), "forbidden");
    await refused(members().remove(holder.id, actor(admin!), owner!.id), "forbidden");
    expect((await members().list(holder.id)).map((m) => m.role)).toEqual(["owner", "admin", "owner"]);
    expect(await audit(holder.id)).toEqual([]);
  });
});
