import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdmin } from "../support/admin-cli.ts";
import { startTestService, type TestService } from "../support/service.ts";

const HEX_KEY = /^[0-9a-f]{40}$/;

const cli = (databaseUrl: string, ...args: string[]) => runAdmin(databaseUrl, args);

/** A command that must succeed: exit 0 and no `error` key. */
async function ok(databaseUrl: string, ...args: string[]) {
  const result = await cli(databaseUrl, ...args);
  expect(result.json).not.toHaveProperty("error");
  expect(result.code).toBe(0);
  return result.json;
}

/** A command that must fail: exit 1 and exactly `{"error": "..."}`. */
async function fails(databaseUrl: string, ...args: string[]) {
  const result = await cli(databaseUrl, ...args);
  expect(result.code).toBe(1);
  expect(Object.keys(result.json)).toEqual(["error"]);
  expect(typeof result.json.error).toBe("string");
  expect(result.json.error.length).toBeGreaterThan(0);
  return result.json.error as string;
}

// Every command is a process start (about a second, more on a busy machine).
describe("admin CLI on a fresh database", { timeout: 60_000 }, () => {
  let dir: string;
  let db: string;
  const keys: Record<string, string> = {};

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "sharecount-cli-"));
    db = `file:${path.join(dir, "db.sqlite")}`;
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("account:create migrates the new database itself and creates an account on every plan", async () => {
    for (const plan of ["free", "plus", "business", "dedicated"]) {
      const created = await ok(db, "account:create", "--email", `${plan.toUpperCase()}@Example.com`, "--plan", plan);
      expect(Object.keys(created).sort()).toEqual(["apikey", "email", "plan"]);
      expect(created.email).toBe(`${plan}@example.com`);
      expect(created.plan).toBe(plan);
      expect(created.apikey).toMatch(HEX_KEY);
      keys[plan] = created.apikey;
    }
    expect(new Set(Object.values(keys)).size).toBe(4);
    expect(fs.existsSync(path.join(dir, "db.sqlite"))).toBe(true);
  }, 120_000);

  // Seven command-line runs, each a process start: 40 s on a slow machine beside two CPU hogs.
  it("account:create refuses a duplicate email (in any case), an unknown plan and a bad email", async () => {
    expect(await fails(db, "account:create", "--email", "Free@EXAMPLE.com", "--plan", "plus")).toMatch(/already exists/);
    const unknown = await fails(db, "account:create", "--email", "new@example.com", "--plan", "gold");
    expect(unknown).toMatch(/gold/);
    expect(unknown).toMatch(/free/);
    expect(await fails(db, "account:create", "--email", "not-an-email", "--plan", "free")).toMatch(/email/i);
    // The sign-up password rule holds here too.
    expect(await fails(db, "account:create", "--email", "weak@example.com", "--plan", "free", "--password", "short")).toMatch(/--password: Use at least 10/);
    expect(await fails(db, "account:create", "--email", "john.smith@example.com", "--plan", "free", "--password", "JohnSmith2026!")).toMatch(/not contain your email/);
    expect(await fails(db, "account:create", "--email", "weak@example.com", "--plan", "free", "--password", "password12")).toMatch(/most common passwords/);
    // Control characters and over-long addresses are not email addresses either.
    expect(await fails(db, "account:create", "--email", "tab\there@example.com", "--plan", "free")).toMatch(/not an email address/i);
    expect(await fails(db, "account:create", "--email", `${"a".repeat(250)}@example.com`, "--plan", "free")).toMatch(/not an email address/i);
  }, 120_000);

  it("account:show describes the account", async () => {
    const shown = await ok(db, "account:show", "--email", "business@example.com");
    expect(shown).toMatchObject({
      email: "business@example.com",
      plan: "business",
      quota: { allocated_today: 100_000, used_today: 0, bulk_batch_limit: 1_000, custom_ttl_allowed: false },
      whitelist: { enabled: false, domains: [] },
      has_password: false,
    });
    expect(Number.isNaN(Date.parse(shown.created_at))).toBe(false);
    expect(JSON.stringify(shown)).not.toContain(keys.business);
  });

  it("account:plan moves the account to another plan, and refuses an unknown one", async () => {
    const moved = await ok(db, "account:plan", "--email", "free@example.com", "--plan", "dedicated");
    expect(moved).toMatchObject({
      email: "free@example.com",
      plan: "dedicated",
      quota: { allocated_today: 1_000_000, custom_ttl_allowed: true },
    });
    expect(await fails(db, "account:plan", "--email", "free@example.com", "--plan", "gold")).toMatch(/gold/);
    expect(await fails(db, "account:plan", "--email", "nobody@example.com", "--plan", "plus")).toMatch(/nobody@example\.com/);
  });

  it("key:roll returns a new key; the old one works on for the grace (a day unless --grace says otherwise)", async () => {
    const before = Date.now();
    const rolled = await ok(db, "key:roll", "--email", "plus@example.com");
    expect(rolled).toEqual({
      email: "plus@example.com",
      key_id: expect.stringMatching(/^key_/),
      name: "Default",
      apikey: expect.stringMatching(HEX_KEY),
      old_key_works_until: expect.any(String),
    });
    expect(rolled.apikey).not.toBe(keys.plus);
    expect(Date.parse(String(rolled.old_key_works_until)) - before).toBeGreaterThanOrEqual(86_400_000);
    expect(Date.parse(String(rolled.old_key_works_until)) - before).toBeLessThan(86_400_000 + 60_000);
    // Two working keys now: which one is for the operator to say.
    expect(await fails(db, "key:roll", "--email", "plus@example.com")).toMatch(/2 active keys: name one with --key/);
    expect(await fails(db, "key:roll", "--email", "plus@example.com", "--key", String(rolled.key_id), "--grace", "604801")).toMatch(/--grace must be a whole number of seconds from 0 to 604800/);
    expect(await fails(db, "key:roll", "--email", "plus@example.com", "--key", "key_nope")).toMatch(/No API key with this id/);
  });

  it("whitelist:set stores normalized entries and the flag; an invalid entry changes nothing", async () => {
    const set = await ok(
      db,
      "whitelist:set",
      "--email",
      "dedicated@example.com",
      "--domains",
      "a.com,*.b.com, https://C.com:8080/x ,Bücher.de,a.com",
      "--enabled",
      "true",
    );
    expect(set.whitelist).toEqual({ enabled: true, domains: ["*.b.com", "a.com", "c.com", "xn--bcher-kva.de"] });

    expect(
      await fails(db, "whitelist:set", "--email", "dedicated@example.com", "--domains", "ok.com,a..b", "--enabled", "false"),
    ).toMatch(/a\.\.b/);
    expect(await fails(db, "whitelist:set", "--email", "dedicated@example.com", "--domains", "a.com", "--enabled", "yes")).toMatch(
      /--enabled/,
    );
    const shown = await ok(db, "account:show", "--email", "dedicated@example.com");
    expect(shown.whitelist).toEqual({ enabled: true, domains: ["*.b.com", "a.com", "c.com", "xn--bcher-kva.de"] });
  });

  it("plan:list lists the four plans with their limits", async () => {
    const listed = await ok(db, "plan:list");
    expect(Object.keys(listed)).toEqual(["plans"]);
    const byName = Object.fromEntries(listed.plans.map((p: { name: string }) => [p.name, p]));
    expect(Object.keys(byName).sort()).toEqual(["business", "dedicated", "free", "plus"]);
    expect(byName.free).toEqual({ name: "free", dailyQuota: 500, bulkBatchLimit: 0, customTtlAllowed: false, trackedUrlLimit: 100 });
    expect(byName.dedicated).toMatchObject({ bulkBatchLimit: 10_000, customTtlAllowed: true, trackedUrlLimit: 500_000 });
  });

  it("plan:set changes a plan's quota, and accounts on it get it today", async () => {
    const updated = await ok(db, "plan:set", "--plan", "plus", "--daily-quota", "20000", "--tracked-url-limit", "6000");
    expect(updated).toEqual({ name: "plus", dailyQuota: 20_000, bulkBatchLimit: 500, customTtlAllowed: false, trackedUrlLimit: 6_000 });
    const shown = await ok(db, "account:show", "--email", "plus@example.com");
    expect(shown.quota.allocated_today).toBe(20_000);
  });

  it("plan:set refuses an unknown plan and values that are not whole numbers, saying which", async () => {
    expect(await fails(db, "plan:set", "--plan", "gold", "--daily-quota", "5")).toMatch(/Unknown plan "gold"/);
    expect(await fails(db, "plan:set", "--plan", "plus", "--daily-quota", "lots")).toMatch(/--daily-quota/);
    const huge = await fails(db, "plan:set", "--plan", "plus", "--daily-quota", "99999999999999999999");
    expect(huge).toMatch(/--daily-quota/);
    expect(huge).not.toMatch(/Unknown plan/);
  });

  it("refuses an unknown command, an unknown option and a missing required option", async () => {
    expect(await fails(db, "account:erase", "--email", "plus@example.com")).toMatch(/Unknown command/);
    expect(await fails(db, "account:show", "--email", "plus@example.com", "--bogus")).toMatch(/--bogus/);
    expect(await fails(db, "key:roll")).toMatch(/--email is required/);
  });
});

describe("admin CLI against a running service", { timeout: 60_000 }, () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(() => svc.close());

  const url = () => encodeURIComponent(`https://example.com/cli-${Math.random().toString(36).slice(2)}`);

  it("key:roll --grace 0 makes the old key fail at once and the new key work", async () => {
    const db = svc.env.DATABASE_URL;
    const created = await ok(db, "account:create", "--email", "operator@example.com", "--plan", "plus");
    expect((await svc.get(`/v1.0/?url=${url()}&apikey=${created.apikey}`)).status).toBe(200);

    const rolled = await ok(db, "key:roll", "--email", "operator@example.com", "--grace", "0");
    const old = await svc.get(`/v1.0/?url=${url()}&apikey=${created.apikey}`);
    expect(old.status).toBe(401);
    expect(await old.json()).toEqual({ Error: expect.any(String), Type: "api_key_expired" });
    const oldQuota = await svc.get(`/v1.0/quota?apikey=${created.apikey}`);
    expect(oldQuota.status).toBe(401);

    expect((await svc.get(`/v1.0/?url=${url()}&apikey=${rolled.apikey}`)).status).toBe(200);
    expect(await (await svc.get(`/v1.0/quota?apikey=${rolled.apikey}`)).json()).toMatchObject({
      plan: "plus",
      quota_used_today: 2,
    });
  });

  it("account:delete deletes the account and what it owns, refuses its key at once and writes the final mail", async () => {
    const db = svc.env.DATABASE_URL;
    const { apiKey } = await svc.account("business", { email: "leaving@example.com" });
    const tracked = await svc.get(`/v2/tracked?apikey=${apiKey}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ urls: [decodeURIComponent(url())] }),
    });
    expect(tracked.status).toBe(200);
    const id = (await svc.accounts.idOf("leaving@example.com"))!;

    expect(await ok(db, "account:delete", "--email", "Leaving@Example.com")).toEqual({ deleted: "leaving@example.com" });
    const refused = await svc.get(`/v1.0/quota?apikey=${apiKey}`);
    expect(refused.status).toBe(401);
    expect(await svc.prisma.trackedUrl.count({ where: { accountId: id } })).toBe(0);
    expect(await svc.prisma.mailMessage.findMany({ where: { recipient: "leaving@example.com" }, select: { kind: true, accountId: true } })).toEqual([
      { kind: "account_deleted", accountId: null },
    ]);
    expect(await fails(db, "account:delete", "--email", "leaving@example.com")).toMatch(/No account with email leaving@example\.com/);
  });

  it("whitelist:set is visible at GET /v1.0/domain_whitelist at once, and enforced", async () => {
    const { email, apiKey } = await svc.account("business");
    await ok(svc.env.DATABASE_URL, "whitelist:set", "--email", email, "--domains", "Good.com,*.b.com", "--enabled", "true");
    expect(await (await svc.get(`/v1.0/domain_whitelist?apikey=${apiKey}`)).json()).toEqual({
      domains: ["*.b.com", "good.com"],
      whitelist_domains_enabled: true,
    });
    const refused = await svc.get(`/v1.0/?url=${encodeURIComponent("https://evil.com/")}&apikey=${apiKey}`);
    expect(refused.status).toBe(403);
    expect((await svc.get(`/v1.0/?url=${encodeURIComponent("https://x.b.com/")}&apikey=${apiKey}`)).status).toBe(200);
  });
});
