import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAlerts, type AlertKit } from "../../lib/alerts/open-alerts.ts";
import { loadServerSecret } from "../../lib/security/secrets.ts";
import { expectError } from "../support/api-error.ts";
import { bearer } from "../support/bearer.ts";
import { startTestService, type TestService } from "../support/service.ts";

/** GET /v2/events through the real service (SQLite here, PostgreSQL in the `scale` project); events are emitted as triggers emit them. */
let svc: TestService;
let kit: AlertKit;
const T0 = Date.UTC(2026, 10, 27, 8);
const MINUTE = 60_000;

beforeAll(async () => {
  svc = await startTestService({}, { worker: false });
  kit = openAlerts(svc.prisma, loadServerSecret(svc.env), "https://sharecount.example.com");
});
afterAll(() => svc.close());

async function accountWithEvents(): Promise<{ apiKey: string; ids: string[] }> {
  const { apiKey, email } = await svc.account();
  const { id: accountId } = await svc.prisma.account.findUniqueOrThrow({ where: { email }, select: { id: true } });
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    const day = `2026-11-${String(20 + i).padStart(2, "0")}`;
    const event = await kit.alerts.emit({ accountId, type: "quota.warning", data: { used: 400 + i, quota: 500, day }, onceKey: `quota.warning:${day}` }, T0 + i * MINUTE);
    ids.push(event!.id);
  }
  // Two events in one millisecond: paging must neither repeat nor skip either.
  for (const bulk_id of ["b1", "b2"]) {
    const data = { bulk_id, urls: 3, completed: 2, failed: 1, quota_spent: 2, finished_at: new Date(T0 + 10 * MINUTE).toISOString() };
    ids.push((await kit.alerts.emit({ accountId, type: "bulk.completed", data }, T0 + 10 * MINUTE))!.id);
  }
  return { apiKey, ids };
}

const events = async (apiKey: string, query = "") => {
  const res = await svc.get(`/v2/events${query}`, bearer(apiKey));
  expect(res.status).toBe(200);
  return (await res.json()) as { data: { id: string; type: string; created_at: string; data: Record<string, unknown> }[]; next_cursor: string | null };
};

describe("GET /v2/events", () => {
  it("lists the account's events newest first, with their data", async () => {
    const { apiKey, ids } = await accountWithEvents();
    const page = await events(apiKey);
    expect(page.next_cursor).toBeNull();
    expect(page.data).toHaveLength(7);
    expect(new Set(page.data.slice(0, 2).map((e) => e.id))).toEqual(new Set(ids.slice(5)));
    expect(page.data.slice(2).map((e) => e.id)).toEqual(ids.slice(0, 5).reverse());
    expect(page.data[2]).toEqual({ id: ids[4], type: "quota.warning", created_at: new Date(T0 + 4 * MINUTE).toISOString(), data: { used: 404, quota: 500, day: "2026-11-24" } });
    expect(page.data[0]).toMatchObject({ type: "bulk.completed", data: { urls: 3, completed: 2, failed: 1, quota_spent: 2 } });
  });

  it("pages by cursor without repeating or skipping an event, also within one millisecond", async () => {
    const { apiKey } = await accountWithEvents();
    const all = (await events(apiKey)).data.map((e) => e.id);
    for (const limit of [1, 2, 3]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await events(apiKey, `?limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`);
        expect(page.data.length).toBeLessThanOrEqual(limit);
        seen.push(...page.data.map((e) => e.id));
        cursor = page.next_cursor;
      } while (cursor !== null);
      expect(seen).toEqual(all);
    }
  });

  it("filters by type", async () => {
    const { apiKey, ids } = await accountWithEvents();
    const bulk = await events(apiKey, "?type=bulk.completed");
    expect(new Set(bulk.data.map((e) => e.id))).toEqual(new Set(ids.slice(5)));
    const first = await events(apiKey, "?type=quota.warning&limit=2");
    const second = await events(apiKey, `?type=quota.warning&limit=2&cursor=${first.next_cursor}`);
    expect([...first.data, ...second.data].map((e) => e.id)).toEqual(ids.slice(1, 5).reverse());
    expect((await events(apiKey, "?type=network.degraded")).data).toEqual([]);
  });

  it("shows no other account's events, and refuses an unknown cursor or type and a limit out of range with a 400", async () => {
    const { apiKey, ids } = await accountWithEvents();
    const stranger = await svc.account();
    expect(await events(stranger.apiKey)).toEqual({ data: [], next_cursor: null });
    const bad = (query: string) => svc.get(`/v2/events${query}`, bearer(stranger.apiKey));
    await expectError(await bad(`?cursor=${ids[2]}`), 400, "invalid_parameter");
    await expectError(await bad("?cursor=evt_nosuchevent"), 400, "invalid_parameter");
    await expectError(await bad("?type=quota.nope"), 400, "invalid_parameter");
    await expectError(await bad("?limit=0"), 400, "invalid_parameter");
    await expectError(await bad("?limit=101"), 400, "invalid_parameter");
    await expectError(await bad("?since=yesterday"), 400, "invalid_parameter");
    await expectError(await svc.get("/v2/events"), 401, "missing_api_key");
    expect((await events(apiKey, `?cursor=${ids[2]}`)).data.map((e) => e.id)).toEqual(ids.slice(0, 2).reverse());
  });

  it("refuses a parameter sent twice, a limit not written in plain digits and an empty cursor, naming the parameter", async () => {
    const { apiKey } = await accountWithEvents();
    const refused = async (query: string, message: RegExp) => {
      const res = await svc.get(`/v2/events${query}`, bearer(apiKey));
      expect((await expectError(res, 400, "invalid_parameter")).Error).toMatch(message);
    };
    await refused("?type=quota.warning&type=bulk.completed", /^type: sent more than once/);
    await refused("?limit=1&limit=2", /^limit: sent more than once/);
    await refused("?limit=2&limit=2", /^limit: sent more than once/);
    for (const limit of ["0x10", "1e2", "%20100", "100%20", "1.0", "+5", "-1"]) await refused(`?limit=${limit}`, /^limit: must be a whole number from 1 to 100, written in digits/);
    await refused("?cursor=", /^cursor: empty/);
    await refused("?cursor", /^cursor: empty/);
    expect((await events(apiKey, "?limit=007")).data).toHaveLength(7);
    expect((await events(apiKey, "?limit=")).data).toHaveLength(7);
  });
});
