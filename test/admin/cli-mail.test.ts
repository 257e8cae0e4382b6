import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrisma, type PrismaClient } from "../../lib/db/prisma.ts";
import { runAdmin } from "../support/admin-cli.ts";

/** The admin command line's mail: an account it creates gets the link that confirms its address, a rolled key a notice. */
describe("admin CLI mail", { timeout: 60_000 }, () => {
  let dir: string;
  let db: string;
  let prisma: PrismaClient;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "sharecount-cli-mail-"));
    db = `file:${path.join(dir, "db.sqlite")}`;
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("account:create queues the confirmation link with the account; key:roll queues the notice with the roll", async () => {
    const env = { SHARECOUNT_PUBLIC_URL: "https://counts.example.com" };
    expect((await runAdmin(db, ["account:create", "--email", "ops@example.com", "--plan", "free"], env)).code).toBe(0);
    prisma = createPrisma(db);
    const account = await prisma.account.findUniqueOrThrow({ where: { email: "ops@example.com" }, include: { tokens: true, mailMessages: true } });
    expect(account.emailVerified).toBeNull();
    expect(account.tokens.map((t) => [t.purpose, t.email])).toEqual([["verify_email", "ops@example.com"]]);
    expect(account.mailMessages.map((m) => [m.kind, m.recipient])).toEqual([["verify_email", "ops@example.com"]]);
    expect((await runAdmin(db, ["account:show", "--email", "ops@example.com"], env)).json).toMatchObject({ email_verified: false });

    expect((await runAdmin(db, ["key:roll", "--email", "ops@example.com"], env)).code).toBe(0);
    const kinds = await prisma.mailMessage.findMany({ where: { accountId: account.id }, orderBy: { createdAt: "asc" }, select: { kind: true } });
    expect(kinds.map((m) => m.kind).sort()).toEqual(["api_key_rolled", "verify_email"]);
  });
});
