import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAlerts, type AlertKit } from "../../lib/alerts/open-alerts.ts";
import { TEST_MESSAGE } from "../../lib/webhooks/webhook-endpoints.ts";
import { WEBHOOK_ACTIONS_PER_MINUTE } from "../../lib/webhooks/webhook-limits.ts";
import { loadServerSecret } from "../../lib/security/secrets.ts";
import { expectError } from "../support/api-error.ts";
import { startTestService, type TestService } from "../support/service.ts";

/**
 * Test events, the delivery log and retries through the real service (SQLite here, PostgreSQL in the `scale`
 * project), without its workers: what a delivery worker does is done here through the delivery store's own
 * lease (claim, settle), so each attempt in the log is one the store wrote. The clock is the test's.
 */
let svc: TestService;
let kit: AlertKit;
let clock = Date.UTC(2026, 10, 27, 12);
const WORKER = "test-worker";

beforeAll(async () => {
  // Endpoints on loopback are let through, as on a closed network; test/v2/webhooks.test.ts refuses them by default.
  svc = await startTestService({ WEBHOOK_ALLOW_PRIVATE_HOSTS: "true" }, { now: () => clock, worker: false });
  kit = openAlerts(svc.prisma, loadServerSecret(svc.env), "https://sharecount.example.com");
});
afterAll(() => svc.close());

const call = (key: string, method: string, path: string, body?: unknown) =>
  svc.get(path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function endpoint(key: string): Promise<string> {
  const res = await call(key, "POST", "/v2/webhooks", { url: "http://127.0.0.1:9/hooks", events: ["quota.warning"] });
  expect(res.status).toBe(201);
  return (await res.json()).id;
}

async function sendTest(key: string, id: string): Promise<string> {
  const res = await call(key, "POST", `/v2/webhooks/${id}/test`);
  expect(res.status).toBe(202);
  const body = await res.json();
  expect(body).toEqual({ event_id: expect.stringMatching(/^evt_/) });
  return body.event_id;
}

/** One POST as a worker makes it: the event's delivery claimed under a lease, then settled with this outcome. */
async function attempt(endpointId: string, eventId: string, outcome: { statusCode: number | null; nextAttemptAt: number | null; error?: string }) {
  const delivery = await svc.prisma.webhookDelivery.findFirstOrThrow({ where: { endpointId, eventId } });
  const [claimed] = await kit.deliveries.claim([delivery.id], WORKER, clock, 60_000);
  expect(claimed).toBeDefined();
  const ok = outcome.statusCode !== null && outcome.statusCode < 300;
  const attempt = { statusCode: outcome.statusCode, ok, durationMs: 42, error: outcome.error ?? null, nextAttemptAt: outcome.nextAttemptAt };
  const settled = await kit.deliveries.settle(WORKER, [{ delivery: claimed!, attempt, at: clock }]);
  expect(settled.has(delivery.id)).toBe(true);
  return delivery.id;
}

describe("POST /v2/webhooks/{id}/test", () => {
  it("emits a webhook.test event delivered to that endpoint only, and listed with the account's events", async () => {
    const { apiKey } = await svc.account();
    const tested = await endpoint(apiKey);
    const other = await endpoint(apiKey);
    const eventId = await sendTest(apiKey, tested);
    const deliveries = await svc.prisma.webhookDelivery.findMany({ where: { eventId } });
    expect(deliveries.map((d) => ({ endpointId: d.endpointId, status: d.status, dueAt: d.dueAt.getTime() }))).toEqual([{ endpointId: tested, status: "pending", dueAt: clock }]);
    expect(other).not.toBe(tested);
    const events = await (await call(apiKey, "GET", "/v2/events")).json();
    expect(events.data[0]).toEqual({ id: eventId, type: "webhook.test", created_at: new Date(clock).toISOString(), data: { endpoint_id: tested, message: TEST_MESSAGE } });
  });

  it("refuses a disabled endpoint with 409 endpoint_disabled, and sends nothing", async () => {
    const { apiKey } = await svc.account();
    const id = await endpoint(apiKey);
    expect((await call(apiKey, "PATCH", `/v2/webhooks/${id}`, { enabled: false })).status).toBe(200);
    const refused = await expectError(await call(apiKey, "POST", `/v2/webhooks/${id}/test`), 409, "endpoint_disabled");
    expect(refused.Error).toMatch(/"enabled": true/);
    expect(await svc.prisma.webhookDelivery.count({ where: { endpointId: id } })).toBe(0);
  });
});

describe("GET /v2/webhooks/{id}/deliveries", () => {
  it("lists every attempt newest first, a page at a time", async () => {
    const { apiKey } = await svc.account();
    const id = await endpoint(apiKey);
    const eventId = await sendTest(apiKey, id);
    expect(await (await call(apiKey, "GET", `/v2/webhooks/${id}/deliveries`)).json()).toEqual({ data: [], next_cursor: null });
    await attempt(id, eventId, { statusCode: 500, nextAttemptAt: clock + 5_000, error: "HTTP 500" });
    const first = clock;
    clock += 5_000;
    await attempt(id, eventId, { statusCode: null, nextAttemptAt: clock + 300_000, error: "timed out after 15 s" });
    clock += 300_000;
    await attempt(id, eventId, { statusCode: 204, nextAttemptAt: null });

    const log = await (await call(apiKey, "GET", `/v2/webhooks/${id}/deliveries`)).json();
    expect(log.next_cursor).toBeNull();
    expect(log.data.map((a: { attempt: number }) => a.attempt)).toEqual([3, 2, 1]);
    expect(log.data[2]).toEqual({
      id: expect.any(String),
      event_id: eventId,
      type: "webhook.test",
      attempt: 1,
      status_code: 500,
      ok: false,
      duration_ms: 42,
      error: "HTTP 500",
      created_at: new Date(first).toISOString(),
      next_attempt_at: new Date(first + 5_000).toISOString(),
    });
    expect(log.data[1]).toMatchObject({ status_code: null, ok: false, error: "timed out after 15 s" });
    expect(log.data[0]).toMatchObject({ status_code: 204, ok: true, error: null, next_attempt_at: null });

    const pages: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: { id: string }[]; next_cursor: string | null } = await (await call(apiKey, "GET", `/v2/webhooks/${id}/deliveries?limit=2${cursor ? `&cursor=${cursor}` : ""}`)).json();
      expect(page.data.length).toBeLessThanOrEqual(2);
      pages.push(...page.data.map((a) => a.id));
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(pages).toEqual(log.data.map((a: { id: string }) => a.id));
    await expectError(await call(apiKey, "GET", `/v2/webhooks/${id}/deliveries?cursor=nope`), 400, "invalid_parameter");
    // Forged cursors: past the year 9999 (which the stores cannot hold), a NUL in the id, base64 with junk in it.
    const forged = (text: string) => Buffer.from(text).toString("base64url");
    const valid = forged(`${first}.${log.data[1].id}`);
    for (const cursor of [forged(`253402300800000.${log.data[1].id}`), forged(`${first}.a\u0000b`), `${valid}!`, `!${valid}`, forged(`0${first}.${log.data[1].id}`)]) {
      await expectError(await call(apiKey, "GET", `/v2/webhooks/${id}/deliveries?cursor=${encodeURIComponent(cursor)}`), 400, "invalid_parameter");
    }
    expect((await call(apiKey, "GET", `/v2/webhooks/${id}/deliveries?cursor=${valid}`)).status).toBe(200);
    await expectError(await call(apiKey, "GET", `/v2/webhooks/${id}/deliveries?limit=101`), 400, "invalid_parameter");
    await expectError(await call(apiKey, "GET", `/v2/webhooks/${id}/deliveries?since=1`), 400, "invalid_parameter");
  });
});

describe("POST /v2/webhooks/{id}/deliveries/{delivery_id}/retry", () => {
  it("sends an attempt's event again now: its delivery is due at once, or said to be in flight while a worker holds it", async () => {
    const { apiKey } = await svc.account();
    const id = await endpoint(apiKey);
    const eventId = await sendTest(apiKey, id);
    const deliveryId = await attempt(id, eventId, { statusCode: 410, nextAttemptAt: null, error: "HTTP 410" });
    expect(await svc.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).toMatchObject({ status: "failed" });
    const [failed] = (await (await call(apiKey, "GET", `/v2/webhooks/${id}/deliveries`)).json()).data;

    clock += 60_000;
    const res = await call(apiKey, "POST", `/v2/webhooks/${id}/deliveries/${failed.id}/retry`);
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ event_id: eventId, status: "queued" });
    expect(await svc.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).toMatchObject({ status: "pending", dueAt: new Date(clock), leaseOwner: null });

    expect(await kit.deliveries.claim([deliveryId], WORKER, clock, 60_000)).toHaveLength(1);
    expect(await (await call(apiKey, "POST", `/v2/webhooks/${id}/deliveries/${failed.id}/retry`)).json()).toEqual({ event_id: eventId, status: "in_flight" });
  });

  it("is 404 for an attempt of another endpoint or account, and 409 for a disabled endpoint", async () => {
    const owner = await svc.account();
    const other = await svc.account();
    const id = await endpoint(owner.apiKey);
    const eventId = await sendTest(owner.apiKey, id);
    await attempt(id, eventId, { statusCode: 500, nextAttemptAt: clock + 5_000 });
    const [logged] = (await (await call(owner.apiKey, "GET", `/v2/webhooks/${id}/deliveries`)).json()).data;
    const sibling = await endpoint(owner.apiKey);
    const elsewhere = await endpoint(other.apiKey);
    await expectError(await call(owner.apiKey, "POST", `/v2/webhooks/${sibling}/deliveries/${logged.id}/retry`), 404, "delivery_not_found");
    await expectError(await call(other.apiKey, "POST", `/v2/webhooks/${elsewhere}/deliveries/${logged.id}/retry`), 404, "delivery_not_found");
    await expectError(await call(other.apiKey, "POST", `/v2/webhooks/${id}/deliveries/${logged.id}/retry`), 404, "webhook_not_found");
    await expectError(await call(owner.apiKey, "POST", `/v2/webhooks/${id}/deliveries/nope/retry`), 404, "delivery_not_found");
    expect((await call(owner.apiKey, "PATCH", `/v2/webhooks/${id}`, { enabled: false })).status).toBe(200);
    await expectError(await call(owner.apiKey, "POST", `/v2/webhooks/${id}/deliveries/${logged.id}/retry`), 409, "endpoint_disabled");
  });
});

describe("the tests and retries an account may ask for", () => {
  it("are 10 tests and 30 retries a minute, taken before the work, also under concurrency: then 429 rate_limited with Retry-After", async () => {
    expect(WEBHOOK_ACTIONS_PER_MINUTE).toEqual({ test: 10, retry: 30 });
    const busy = await svc.account();
    const calm = await svc.account();
    const id = await endpoint(busy.apiKey);
    const answers = await Promise.all(Array.from({ length: 15 }, () => call(busy.apiKey, "POST", `/v2/webhooks/${id}/test`)));
    expect(answers.map((res) => res.status).sort()).toEqual([...Array(10).fill(202), ...Array(5).fill(429)]);
    const refused = answers.find((res) => res.status === 429)!;
    const seconds = Number(refused.headers.get("retry-after"));
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(60);
    await expectError(refused, 429, "rate_limited");
    // Refused tests wrote nothing: ten events, ten deliveries.
    expect(await svc.prisma.webhookDelivery.count({ where: { endpointId: id } })).toBe(10);
    // Another account has its own allowance.
    await sendTest(calm.apiKey, await endpoint(calm.apiKey));

    const eventId = (await svc.prisma.webhookDelivery.findFirstOrThrow({ where: { endpointId: id } })).eventId;
    const deliveryId = await attempt(id, eventId, { statusCode: 500, nextAttemptAt: clock + 5_000, error: "HTTP 500" });
    const retries = await Promise.all(Array.from({ length: 35 }, () => call(busy.apiKey, "POST", `/v2/webhooks/${id}/deliveries/${deliveryId}/retry`)));
    expect(retries.map((res) => res.status).sort()).toEqual([...Array(30).fill(202), ...Array(5).fill(429)]);
    await expectError(retries.find((res) => res.status === 429)!, 429, "rate_limited");
  });
});
