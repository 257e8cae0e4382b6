import { createHash } from "node:crypto";
import { verify } from "@node-rs/argon2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrisma, type PrismaClient } from "../../lib/db/prisma.ts";
import { MAIL_VAULT_PURPOSE } from "../../lib/mail/outbox.ts";
import { KeyVault, loadServerSecret } from "../../lib/security/secrets.ts";
import { runAdmin } from "../support/admin-cli.ts";
import { sqliteStoreDatabase, type StoreDatabase } from "../support/stores.ts";

/** The operator's way around mail: account:reset-link prints a link, account:password sets the password. */

const PUBLIC_URL = "https://sharecount.example.com";
const PASSWORD = "a first long password";

// Every command is a process start (about a second, more on a busy machine).
describe("admin CLI: password reset without mail", { timeout: 60_000 }, () => {
  let db: StoreDatabase;
  let prisma: PrismaClient;
  const cli = (args: string[], env: Record<string, string> = {}) => runAdmin(db.url, args, { SHARECOUNT_PUBLIC_URL: PUBLIC_URL, ...env });
  const tokenHash = (link: string) => createHash("sha256").update(new URL(link).searchParams.get("token")!).digest("hex");
  const idOf = async (email: string) => (await prisma.account.findUniqueOrThrow({ where: { email } })).id;

  beforeAll(async () => {
    db = await sqliteStoreDatabase();
    prisma = db.prisma;
    for (const email of ["reset@example.com", "operator@example.com"]) {
      expect((await cli(["account:create", "--email", email, "--plan", "free", "--password", PASSWORD])).code).toBe(0);
    }
  }, 60_000);
  afterAll(() => db?.drop());

  it("account:reset-link prints a one-time link at the public URL, valid for PASSWORD_RESET_TTL_MINUTES, the newer voiding the older", async () => {
    const started = Date.now();
    const first = await cli(["account:reset-link", "--email", "Reset@Example.com"], { PASSWORD_RESET_TTL_MINUTES: "15" });
    expect(first.code).toBe(0);
    expect(Object.keys(first.json).sort()).toEqual(["email", "expires_at", "link"]);
    expect(first.json.email).toBe("reset@example.com");
    expect(first.json.link).toMatch(new RegExp(`^${PUBLIC_URL}/reset-password\\?token=[A-Za-z0-9_-]{43}$`));
    const expiresAt = Date.parse(first.json.expires_at);
    expect(expiresAt).toBeGreaterThanOrEqual(started + 15 * 60_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 15 * 60_000);

    const id = await idOf("reset@example.com");
    const row = await prisma.accountToken.findUniqueOrThrow({ where: { tokenHash: tokenHash(first.json.link) } });
    expect(row).toMatchObject({ accountId: id, purpose: "password_reset", usedAt: null });
    expect(row.expiresAt.getTime()).toBe(expiresAt);
    // Printed, not mailed (the account's only mail is the link to confirm its address, queued with it).
    expect(await prisma.mailMessage.count({ where: { accountId: id, kind: { not: "verify_email" } } })).toBe(0);

    // Without SHARECOUNT_PUBLIC_URL the link points at this machine's port.
    const second = await runAdmin(db.url, ["account:reset-link", "--email", "reset@example.com"], { PORT: "4321" });
    expect(second.json.link).toMatch(/^http:\/\/localhost:4321\/reset-password\?token=/);
    expect((await prisma.accountToken.findMany({ where: { accountId: id, purpose: "password_reset" } })).map((t) => t.tokenHash)).toEqual([tokenHash(second.json.link)]);

    expect((await cli(["account:reset-link", "--email", "nobody@example.com"])).json.error).toMatch(/No account with email nobody@example\.com/);
  });

  it("account:password refuses a weak password (the sign-up rule), saying why, and changes nothing", async () => {
    const id = await idOf("operator@example.com");
    const before = (await prisma.account.findUniqueOrThrow({ where: { id } })).passwordHash;
    for (const [password, reason] of [
      ["short", /--password: Use at least 10/],
      ["password12", /--password: .*most common passwords/],
    ] as const) {
      const refused = await cli(["account:password", "--email", "operator@example.com", "--password", password]);
      expect(refused.code).toBe(1);
      expect(refused.json.error).toMatch(reason);
    }
    expect((await prisma.account.findUniqueOrThrow({ where: { id } })).passwordHash).toBe(before);
  });

  it("account:password refuses a missing password and an unknown account", async () => {
    expect((await cli(["account:password", "--email", "operator@example.com"])).json.error).toMatch(/--password is required/);
    expect((await cli(["account:password", "--email", "nobody@example.com", "--password", "a second long password"])).json.error).toMatch(/No account/);
  });

  it("account:password sets the password, ends every session and queues the password-changed notice", async () => {
    const id = await idOf("operator@example.com");
    const expires = new Date(Date.now() + 86_400_000);
    await prisma.session.createMany({ data: [1, 2].map((n) => ({ sessionToken: `cli-session-${n}`, userId: id, expires })) });

    const set = await cli(["account:password", "--email", "OPERATOR@example.com", "--password", "a second long password"]);
    expect(set.code).toBe(0);
    expect(set.json).toEqual({ email: "operator@example.com", sessions_ended: 2 });
    expect(await prisma.session.count({ where: { userId: id } })).toBe(0);
    const { passwordHash } = await prisma.account.findUniqueOrThrow({ where: { id } });
    expect(await verify(passwordHash!, "a second long password")).toBe(true);
    expect(await verify(passwordHash!, PASSWORD)).toBe(false);

    const [notice, ...more] = await prisma.mailMessage.findMany({ where: { accountId: id, kind: { not: "verify_email" } } });
    expect(more).toEqual([]);
    expect(notice).toMatchObject({ kind: "password_changed", recipient: "operator@example.com", status: "pending" });
    const vault = new KeyVault(loadServerSecret({ DATABASE_URL: db.url }), MAIL_VAULT_PURPOSE);
    expect(JSON.parse(vault.decrypt(notice!.payload!))).toEqual({ when: expect.stringMatching(/^on \d+ \w+ \d{4} at \d\d:\d\d UTC$/), link: `${PUBLIC_URL}/forgot-password` });
  });
});
