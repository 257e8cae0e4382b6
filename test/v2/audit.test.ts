import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemSource, userActor } from "../../lib/audit/actor.ts";
import { ACTOR_HEADER, signActor } from "../../lib/audit/dashboard-actor.ts";
import { recordAudit } from "../../lib/audit/record.ts";
import { loadServerSecret } from "../../lib/security/secrets.ts";
import { runAdmin } from "../support/admin-cli.ts";
import { expectError } from "../support/api-error.ts";
import { bearer } from "../support/bearer.ts";
import { startTestService, type TestService } from "../support/service.ts";

/**
 * GET /v2/audit and the events the API itself records (webhook endpoints), through the real service (SQLite
 * here, PostgreSQL in the `scale` project).
 */
let svc: TestService;
const T0 = Date.UTC(2026, 10, 20, 8);
const HOUR = 3_600_000;

beforeAll(async () => {
  svc = await startTestService({ WEBHOOK_ALLOW_PRIVATE_HOSTS: "true" }, { worker: false });
});
afterAll(() => svc.close());

type Page = { data: { id: string; time: string; action: string; actor: { type: string; id: string | null; label: string | null }; ip: string | null; user_agent: string | null; changes: Record<string, unknown> }[]; next_cursor: string | null };

const audit = async (apiKey: string, query = "") => {
  const res = await svc.get(`/v2/audit${query}`, bearer(apiKey));
  expect(res.status).toBe(200);
  return (await res.json()) as Page;
};

async function accountWithEvents() {
  const { apiKey, email } = await svc.account("free");
  const { id } = await svc.prisma.account.findUniqueOrThrow({ where: { email }, select: { id: true } });
  const user = { id, email };
  const whitelist = () => ({ before: 0, after: 1, added: ["a.example.com"], removed: [], added_count: 1, removed_count: 0, enabled_before: false, enabled: true });
  for (let i = 0; i < 4; i++) {
    await recordAudit(svc.prisma, { accountId: id, actor: userActor(user), client: { address: "198.51.100.7", userAgent: "test" }, at: T0 + i * HOUR, action: "whitelist.changed", changes: whitelist() });
  }
  await recordAudit(svc.prisma, { accountId: id, ...systemSource(T0 + 10 * HOUR), action: "plan.changed", changes: { from: "free", to: "plus" } });
  // Two events in one millisecond: paging must neither repeat nor skip either.
  for (const method of ["password", "github"] as const) {
    await recordAudit(svc.prisma, { accountId: id, actor: userActor(user), client: { address: null, userAgent: null }, at: T0 + 20 * HOUR, action: "sign_in", changes: { method } });
  }
  return { apiKey, user };
}

/** The command line needs the service's secret on PostgreSQL (SQLite keeps it in a file beside the database). */
const secretEnv = (): Record<string, string> => (svc.env.SHARECOUNT_SECRET ? { SHARECOUNT_SECRET: svc.env.SHARECOUNT_SECRET } : {});

describe("GET /v2/audit", () => {
  it("lists the account's events newest first, pages by cursor without repeats or gaps, and filters", async () => {
    const { apiKey } = await accountWithEvents();
    const all = await audit(apiKey);
    expect(all.data.map((e) => e.action)).toEqual(["sign_in", "sign_in", "plan.changed", "whitelist.changed", "whitelist.changed", "whitelist.changed", "whitelist.changed"]);
    expect(all.data[2]).toMatchObject({ actor: { type: "system", id: null }, ip: null, changes: { from: "free", to: "plus" }, time: new Date(T0 + 10 * HOUR).toISOString() });
    expect(all.data[3]).toMatchObject({ actor: { type: "user" }, ip: "198.51.100.0/24", user_agent: "test" });

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Page = await audit(apiKey, `?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((e) => e.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(all.data.map((e) => e.id));

    expect((await audit(apiKey, "?action=plan.changed")).data.map((e) => e.action)).toEqual(["plan.changed"]);
    expect((await audit(apiKey, "?actor_type=system")).data).toHaveLength(1);
    expect((await audit(apiKey, "?actor_type=key")).data).toEqual([]);
    const range = await audit(apiKey, `?from=${new Date(T0 + HOUR).toISOString()}&to=${new Date(T0 + 3 * HOUR).toISOString()}`);
    expect(range.data.map((e) => e.time)).toEqual([new Date(T0 + 2 * HOUR).toISOString(), new Date(T0 + HOUR).toISOString()]);
    expect((await audit(apiKey, "?from=2026-11-21")).data.map((e) => e.action)).toEqual(["sign_in", "sign_in"]);
  });

  it("shows an account only its own events", async () => {
    await accountWithEvents();
    const { apiKey } = await svc.account("free");
    expect(await audit(apiKey)).toEqual({ data: [], next_cursor: null });
  });

  it("refuses bad parameters with a clear 400", async () => {
    const { apiKey } = await svc.account("free");
    const refused = async (query: string, text: RegExp) => {
      const body = await expectError(await svc.get(`/v2/audit${query}`, bearer(apiKey)), 400, "invalid_parameter");
      expect(body.Error).toMatch(text);
    };
    await refused("?action=account.hacked", /action must be one of whitelist\.changed/);
    await refused("?actor_type=robot", /actor_type must be one of user, key, system, anonymous/);
    await refused("?from=yesterday", /from must be an ISO 8601/);
    await refused("?from=2026-11-22&to=2026-11-21", /from must not be after to/);
    await refused("?limit=0", /limit/);
    await refused("?limit=101", /limit/);
    await refused("?cursor=bm90LWEtY3Vyc29y", /cursor: not a next_cursor/);
    await refused("?cursor=", /cursor: empty/);
    await refused("?colour=red", /unknown parameter/);
    await expectError(await svc.get("/v2/audit"), 401, "missing_api_key");
  });

  it("records webhook endpoint changes made with the key as the key's, and as the dashboard's signed user when it says so", async () => {
    const { apiKey, email } = await svc.account("free");
    const { id } = await svc.prisma.account.findUniqueOrThrow({ where: { email }, select: { id: true } });
    const json = (method: string, body: unknown, headers: Record<string, string> = {}) => ({
      method,
      headers: { ...bearer(apiKey).headers, "content-type": "application/json", "user-agent": "curl/8.5", ...headers },
      body: JSON.stringify(body),
    });
    const created = await svc.get("/v2/webhooks", json("POST", { url: "http://127.0.0.1:9/hook?token=abc", events: ["bulk.completed"] }));
    expect(created.status).toBe(201);
    const { id: endpointId, secret } = (await created.json()) as { id: string; secret: string };

    const signed = signActor(loadServerSecret(svc.env), { account: id, user: id, email, address: "2001:db8:1:2::9", userAgent: "Firefox", at: Date.now() });
    expect((await svc.get(`/v2/webhooks/${endpointId}`, json("PATCH", { enabled: false }, { [ACTOR_HEADER]: signed }))).status).toBe(200);
    // Signed for another account, or forged: the change is the key's.
    const forged = `${signed.split(".")[0]}.AAAA`;
    expect((await svc.get(`/v2/webhooks/${endpointId}`, json("PATCH", { events: ["quota.warning"] }, { [ACTOR_HEADER]: forged }))).status).toBe(200);
    expect((await svc.get(`/v2/webhooks/${endpointId}`, { method: "DELETE", ...bearer(apiKey) })).status).toBe(204);
    expect((await svc.get(`/v2/webhooks/${endpointId}`, { method: "DELETE", ...bearer(apiKey) })).status).toBe(404);

    const { data } = await audit(apiKey);
    expect(data.map((e) => [e.action, e.actor.type]).sort()).toEqual([["webhook.created", "key"], ["webhook.deleted", "key"], ["webhook.updated", "key"], ["webhook.updated", "user"]]);
    const byUser = data.find((e) => e.actor.type === "user")!;
    expect(byUser).toMatchObject({ actor: { id, label: email }, ip: "2001:db8:1::/48", user_agent: "Firefox", changes: { fields: ["enabled"], enabled: false } });
    const created_ = data.find((e) => e.action === "webhook.created")!;
    expect(created_).toMatchObject({ actor: { type: "key", id: expect.stringMatching(/^key_[0-9a-f]{24}$/), label: "API key" }, ip: "127.0.0.0/24", user_agent: "curl/8.5", changes: { host: "127.0.0.1", events: ["bulk.completed"] } });
    const stored = JSON.stringify(await svc.prisma.auditEvent.findMany({ where: { accountId: id } }));
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain("token=abc");
  });

  it("a plan change by the admin command line is recorded with the system as actor", async () => {
    const { apiKey, email } = await svc.account("free");
    const result = await runAdmin(svc.env.DATABASE_URL, ["account:plan", "--email", email, "--plan", "plus"], secretEnv());
    expect(result.code).toBe(0);
    const { data } = await audit(apiKey, "?action=plan.changed");
    expect(data).toMatchObject([{ actor: { type: "system", id: null, label: "admin command line" }, ip: null, changes: { from: "free", to: "plus" } }]);
  });
});
