import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Accounts } from "../../lib/accounts/accounts.ts";
import { createPrisma, type PrismaClient } from "../../lib/db/prisma.ts";
import { migrate } from "../../lib/db/migrate.ts";
import { Members } from "../../lib/members/members.ts";
import { allows, NEEDS, ROLES, type Need, type Role } from "../../lib/members/roles.ts";
import { QuotaClock } from "../../lib/quota/clock.ts";
import { Sessions } from "../../lib/sessions/sessions.ts";
import { openStore } from "../../lib/store/open.ts";
import type { Store } from "../../lib/store/store.ts";
import { ROOT } from "../support/admin-cli.ts";
import { ensureDashboardBuild, startApp, type App } from "../support/app.ts";
import { createScratchDatabase } from "../support/postgres.ts";
import { postgresSkipReason } from "../support/stores.ts";

/*
 * Role checks for each dashboard server route, as each role: every route names what it needs (read from the
 * sources, so a new route without a need fails here), the mutations' needs are written out again (so a weakened
 * need shows in review), and the running app refuses exactly the roles below each need, on both stores.
 */

const DASHBOARD_API = path.join(ROOT, "app", "api", "dashboard");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];
interface Route {
  path: string;
  method: Method;
  need: Need;
}

/** Every exported handler of every app/api/dashboard/**\/route.ts, with the need its signedInEndpoint names (null: none). */
function collectRoutes(): { routes: Route[]; without: string[] } {
  const files = (fs.readdirSync(DASHBOARD_API, { recursive: true }) as string[]).filter((f) => path.basename(f) === "route.ts").sort();
  const routes: Route[] = [];
  const without: string[] = [];
  for (const file of files) {
    const source = fs.readFileSync(path.join(DASHBOARD_API, file), "utf8");
    const routePath = path.dirname(file).split(path.sep).join("/");
    const exported = new Set<string>();
    for (const m of source.matchAll(/export\s+(?:const|let|var|(?:async\s+)?function)\s+([A-Z]+)\b/g)) exported.add(m[1]!);
    for (const m of source.matchAll(/export\s*\{([^}]*)\}/g)) for (const name of m[1]!.split(",")) exported.add(name.trim().split(/\s+as\s+/).pop()!);
    for (const method of METHODS.filter((m) => exported.has(m))) {
      const need = new RegExp(`export const ${method} = signedInEndpoint\\(\\s*\\{\\s*need:\\s*"(\\w+)"`).exec(source)?.[1];
      if (need && need in NEEDS) routes.push({ path: routePath, method, need: need as Need });
      else without.push(`${method} ${routePath}`);
    }
  }
  return { routes, without };
}

/** The mutations' needs, written out: changing one here is a decision a reviewer sees. */
const MUTATION_NEEDS: Record<string, Need> = {
  "POST account/delete": "ownership",
  "PUT alerts": "settings",
  "POST bulk": "work",
  "POST email": "self",
  "POST email/verification": "self",
  "DELETE imports/[id]": "work",
  "POST invites": "members",
  "DELETE invites/[id]": "members",
  "POST invites/[id]/resend": "members",
  "POST invites/accept": "self",
  "POST keys": "keys",
  "DELETE keys/[id]": "keys",
  "POST keys/[id]/reveal": "keys",
  "POST keys/[id]/roll": "keys",
  "POST lookup": "work",
  "PATCH members/[userId]": "members",
  // Any member may leave; removing someone else is refused by the verb (Members.remove asks "members").
  "DELETE members/[userId]": "read",
  "POST password": "self",
  "POST session/account": "self",
  "DELETE sessions": "self",
  "DELETE sessions/[id]": "self",
  "PUT settings/networks": "settings",
  "PUT settings/tracking": "settings",
  "POST tracked": "work",
  "DELETE tracked": "work",
  "PUT tracked/aliases": "work",
  "POST webhooks": "settings",
  "PATCH webhooks/[id]": "settings",
  "DELETE webhooks/[id]": "settings",
  "POST webhooks/[id]/deliveries/[deliveryId]/retry": "settings",
  "POST webhooks/[id]/secret": "settings",
  "POST webhooks/[id]/test": "settings",
  "PUT whitelist": "settings",
};

/** What a role must be to get past a route with a dummy target: removing another member is the verb's "members" check. */
const EFFECTIVE_NEED: Record<string, Need> = { "DELETE members/[userId]": "members" };

const { routes: ROUTES, without: WITHOUT_NEED } = collectRoutes();
const key = (r: Route) => `${r.method} ${r.path}`;
const MUTATIONS = ROUTES.filter((r) => r.method !== "GET");

describe("every dashboard route names its need", () => {
  it("finds the routes (the walk itself works)", () => {
    expect(ROUTES.length).toBeGreaterThan(40);
    expect(ROUTES.map(key)).toContain("GET members");
  });

  it("no exported handler lacks a need", () => {
    expect(WITHOUT_NEED).toEqual([]);
  });

  it("the mutations' needs are exactly the table's", () => {
    expect(Object.fromEntries(MUTATIONS.map((r) => [key(r), r.need]))).toEqual(MUTATION_NEEDS);
  });

  it("reads need only read, self or export", () => {
    for (const r of ROUTES.filter((r) => r.method === "GET")) expect(["read", "self", "export"], key(r)).toContain(r.need);
  });
});

const OWNER_PASSWORD = "the owner's long password 42";
const DUMMY: Record<string, string> = {
  "invites/[id]": `inv_${"0".repeat(24)}`,
  "members/[userId]": "no-such-user",
  "[deliveryId]": "dlv_none",
};

/** The route's URL with its dynamic segments filled with plausible ids that name nothing. */
function urlOf(routePath: string): string {
  return `/api/dashboard/${routePath}`
    .replace(/invites\/\[id\]/, `invites/${DUMMY["invites/[id]"]}`)
    .replace(/members\/\[userId\]/, `members/${DUMMY["members/[userId]"]}`)
    .replace("[deliveryId]", DUMMY["[deliveryId]"]!)
    .replace("[id]", "none_0123456789abcdef");
}

const skipPostgres = (await postgresSkipReason("test/members/route-roles.test.ts")) !== undefined;

/** The app on a SQLite file of its own, or on a migrated scratch PostgreSQL database. */
const stores = [
  { name: "SQLite", skip: false, database: async (): Promise<{ env: Record<string, string>; drop(): Promise<void> }> => ({ env: {}, drop: async () => {} }) },
  {
    name: "PostgreSQL",
    skip: skipPostgres,
    database: async () => {
      const db = await createScratchDatabase("route_roles");
      await migrate(db.url);
      return { env: { DATABASE_URL: db.url, SHARECOUNT_SECRET: "route-roles-test-secret-".padEnd(48, "x") }, drop: db.drop };
    },
  },
];

describe.each(stores)("each role against the running app on $name", ({ skip, database }) => {
  let app: App;
  let prisma: PrismaClient;
  let store: Store;
  let drop: () => Promise<void>;
  let mailDir: string;
  let accountId: string;
  const cookies = {} as Record<Role, string>;
  const userIds = {} as Record<Role, string>;

  /** A user's signed-in browser, stored as sign-in stores it (the SHA-256 of the cookie's token), working in account A. */
  async function signIn(sessions: Sessions, role: Role, userId: string) {
    const token = randomBytes(32).toString("hex");
    const now = Date.now();
    const row = await prisma.session.create({
      data: { sessionToken: createHash("sha256").update(token).digest("hex"), userId, expires: new Date(now + 86_400_000), userAgent: "vitest" },
    });
    expect(await sessions.switchTo(row.id, userId, accountId)).toBe(true);
    cookies[role] = `authjs.session-token=${token}`;
    userIds[role] = userId;
  }

  beforeAll(async () => {
    if (skip) return;
    await ensureDashboardBuild();
    const db = await database();
    drop = db.drop;
    mailDir = fs.mkdtempSync(path.join(os.tmpdir(), "sharecount-route-roles-mail-"));
    app = await startApp({ MAIL_DIR: mailDir, ...db.env });
    const url = db.env.DATABASE_URL ?? `file:${path.join(app.dataDir, "app.db")}`;
    prisma = createPrisma(url);
    store = openStore(url);
    const clock = new QuotaClock("UTC");
    const accounts = new Accounts(prisma, clock, store);
    const sessions = new Sessions(prisma, clock);
    const tag = randomBytes(3).toString("hex");
    const holder = await accounts.create({ email: `owner-${tag}@example.com`, plan: "business", password: OWNER_PASSWORD });
    accountId = holder.account.id;
    await signIn(sessions, "owner", accountId);
    for (const role of ROLES.filter((r) => r !== "owner")) {
      const { account } = await accounts.create({ email: `${role}-${tag}@example.com`, plan: "free" });
      await Members.add(prisma, accountId, account.id, role, clock.now());
      await signIn(sessions, role, account.id);
    }
  }, 300_000);

  afterAll(async () => {
    await app?.close();
    await store?.close();
    await prisma?.$disconnect();
    await drop?.();
    if (mailDir) fs.rmSync(mailDir, { recursive: true, force: true });
  });

  /** One request as `role`, from this site's own page (as a browser sends it). */
  async function call(role: Role, method: Method, target: string, body?: unknown) {
    const res = await fetch(`${app.url}${target}`, {
      method,
      headers: { Cookie: cookies[role], Origin: app.url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let json: { error?: string } = {};
    try {
      json = JSON.parse(text) as { error?: string };
    } catch {
      // A CSV or other non-JSON answer: no error code to read.
    }
    return { status: res.status, error: json.error, json };
  }

  /** Refused by the role check exactly when the role is below the need; else past it (signed in, same-origin, no 5xx). */
  function expectRoleAnswer(r: Route, role: Role, answer: { status: number; error?: string }) {
    const need = EFFECTIVE_NEED[key(r)] ?? r.need;
    const label = `${key(r)} as ${role} (needs ${need}): ${answer.status} ${answer.error}`;
    if (!allows(role, need)) {
      expect([answer.status, answer.error], label).toEqual([403, "forbidden"]);
    } else {
      expect(answer.status === 403 && answer.error === "forbidden", label).toBe(false);
      expect(["cross_site", "signed_out"], label).not.toContain(answer.error);
      expect(answer.status, label).toBeLessThan(500);
    }
  }

  it.skipIf(skip)("a viewer of A sees A's four members", async () => {
    const answer = await call("viewer", "GET", "/api/dashboard/members");
    expect(answer.status).toBe(200);
    const members = (answer.json as unknown as { members: { userId: string; role: Role }[] }).members;
    expect(members.map((m) => [m.userId, m.role]).sort()).toEqual(ROLES.map((role) => [userIds[role], role]).sort());
  });

  it.skipIf(skip).each(MUTATIONS.filter((r) => r.path !== "account/delete").map((r) => ({ ...r, name: key(r) })))(
    "$name answers each role by its need",
    async (r) => {
      for (const role of ROLES) expectRoleAnswer(r, role, await call(role, r.method, urlOf(r.path), r.method === "DELETE" ? undefined : {}));
    },
  );

  it.skipIf(skip)("a POST whose input is its path is read without a body, as the pages send it (resend, reveal)", async () => {
    const resend = await call("owner", "POST", "/api/dashboard/invites/inv_000000000000000000000000/resend");
    const reveal = await call("owner", "POST", "/api/dashboard/keys/key_000000000000000000000000/reveal");
    for (const answer of [resend, reveal]) {
      expect(answer.error).not.toBe("invalid_input");
      expect(answer.status).toBeLessThan(500);
    }
  });

  it.skipIf(skip)("reads refuse the roles below their need (the export: viewer and developer)", async () => {
    const refused: string[] = [];
    for (const r of ROUTES.filter((r) => r.method === "GET")) {
      for (const role of ROLES.filter((role) => !allows(role, r.need))) {
        expectRoleAnswer(r, role, await call(role, "GET", urlOf(r.path)));
        refused.push(`${key(r)} ${role}`);
      }
    }
    expect(refused.sort()).toEqual(["GET account/export developer", "GET account/export viewer"]);
  });

  it.skipIf(skip)("account deletion: refused below owner; the owner gets past the role check (a wrong password deletes nothing)", async () => {
    const r: Route = { path: "account/delete", method: "POST", need: "ownership" };
    for (const role of ROLES) {
      const answer = await call(role, "POST", urlOf(r.path), { password: "not the password" });
      expectRoleAnswer(r, role, answer);
      if (role === "owner") expect([answer.status, answer.error]).toEqual([422, "wrong_password"]);
    }
    expect(await prisma.account.count({ where: { id: accountId } })).toBe(1);
  });

  it.skipIf(skip)("a viewer may leave (the route needs only read), after which the owner lists three members", async () => {
    const left = await call("viewer", "DELETE", `/api/dashboard/members/${userIds.viewer}`);
    expect([left.status, left.json]).toEqual([200, { left: true }]);
    const list = await call("owner", "GET", "/api/dashboard/members");
    expect((list.json as unknown as { members: { role: Role }[] }).members.map((m) => m.role).sort()).toEqual(["admin", "developer", "owner"]);
  });
});
