import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAlerts } from "../../lib/alerts/open-alerts.ts";
import { loadServerSecret } from "../../lib/security/secrets.ts";
import { expectError } from "../support/api-error.ts";
import { bearerJson } from "../support/bearer.ts";
import { startTestService, type TestService } from "../support/service.ts";

/**
 * Webhook endpoints through the real service (SQLite here, PostgreSQL in the `scale` project): create, read,
 * change, delete, roll the secret, the limit of 20 under concurrency, and the refusals. The clock is the test's.
 */
let svc: TestService;
let clock = Date.UTC(2026, 10, 27, 12);
const HOUR = 3_600_000;

beforeAll(async () => {
  svc = await startTestService({}, { now: () => clock, worker: false });
});
afterAll(() => svc.close());

type Json = Record<string, unknown>;
const call = (key: string, method: string, path: string, body?: unknown) => svc.get(path, bearerJson(key, method, body));
const create = (key: string, body: Json = {}) => call(key, "POST", "/v2/webhooks", { url: "https://example.com/hooks", events: ["bulk.completed"], ...body });
async function created(key: string, body: Json = {}): Promise<{ id: string; secret: string }> {
  const res = await create(key, body);
  expect(res.status).toBe(201);
  return res.json();
}

describe("POST /v2/webhooks", () => {
  it("answers 201 with the endpoint and its secret, which GET never shows again", async () => {
    const { apiKey } = await svc.account();
    const res = await create(apiKey, { url: "https://example.com/in", events: ["quota.warning", "tracked_url.spike"], description: "ops channel" });
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = await res.json();
    expect(body).toEqual({
      id: expect.stringMatching(/^we_/),
      url: "https://example.com/in",
      events: ["quota.warning", "tracked_url.spike"],
      format: "standard",
      description: "ops channel",
      enabled: true,
      disabled_reason: null,
      created_at: new Date(clock).toISOString(),
      last_success_at: null,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
    });
    const one = await call(apiKey, "GET", `/v2/webhooks/${body.id}`);
    const list = await call(apiKey, "GET", "/v2/webhooks");
    expect(one.status).toBe(200);
    const { secret, ...shown } = body;
    const texts = [await one.text(), await list.text()];
    expect(JSON.parse(texts[0]!)).toEqual(shown);
    expect(JSON.parse(texts[1]!)).toEqual({ data: [shown] });
    for (const text of texts) expect(text).not.toMatch(/whsec_|secret/);
    expect(secret).toMatch(/^whsec_/);
  });

  it("refuses unknown or repeated event types, bad URLs, private hosts and unbounded input, each with a 400", async () => {
    const { apiKey } = await svc.account();
    const refusals: [Json, string][] = [
      [{ events: ["quota.nope"] }, "invalid_body"],
      [{ events: ["webhook.test"] }, "invalid_body"],
      [{ events: ["bulk.completed", "bulk.completed"] }, "invalid_body"],
      [{ events: [] }, "invalid_body"],
      [{ events: "bulk.completed" }, "invalid_body"],
      [{ format: "teams" }, "invalid_body"],
      [{ description: "x".repeat(201) }, "invalid_body"],
      [{ secret: "whsec_mine" }, "invalid_body"],
      [{ url: `https://example.com/${"a".repeat(2000)}` }, "invalid_body"],
      [{ url: "ftp://example.com/hooks" }, "invalid_url"],
      [{ url: "example.com/hooks" }, "invalid_url"],
      [{ url: "https://user:pass@example.com/hooks" }, "invalid_url"],
      [{ url: "http://localhost:8080/hooks" }, "invalid_url"],
      [{ url: "http://127.0.0.1/hooks" }, "invalid_url"],
      [{ url: "http://[::1]/hooks" }, "invalid_url"],
      [{ url: "http://10.1.2.3/hooks" }, "invalid_url"],
      [{ url: "http://169.254.169.254/latest" }, "invalid_url"],
    ];
    for (const [body, type] of refusals) await expectError(await create(apiKey, body), 400, type);
    const notJson = await svc.get("/v2/webhooks", { method: "POST", headers: { authorization: `Bearer ${apiKey}` }, body: "url=x" });
    await expectError(notJson, 415, "invalid_body");
    await expectError(await svc.get("/v2/webhooks", { method: "POST" }), 401, "missing_api_key");
    expect((await (await call(apiKey, "GET", "/v2/webhooks")).json()).data).toEqual([]);
  });

  it("keeps an account at 20 endpoints, also under 30 concurrent creates", async () => {
    const { apiKey } = await svc.account();
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => create(apiKey, { url: `https://example.com/hook-${i}` })));
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    expect(statuses.filter((s) => s === 400)).toHaveLength(10);
    await expectError(answers.find((res) => res.status === 400)!, 400, "too_many_endpoints");
    expect((await (await call(apiKey, "GET", "/v2/webhooks")).json()).data).toHaveLength(20);
    await expectError(await create(apiKey), 400, "too_many_endpoints");
    const [first] = (await (await call(apiKey, "GET", "/v2/webhooks")).json()).data;
    expect((await call(apiKey, "DELETE", `/v2/webhooks/${first.id}`)).status).toBe(204);
    expect((await create(apiKey)).status).toBe(201);
  });
});

describe("PATCH and DELETE /v2/webhooks/{id}", () => {
  it("changes the url, events, description and enabled, validated as on create", async () => {
    const { apiKey } = await svc.account();
    const { id } = await created(apiKey);
    const res = await call(apiKey, "PATCH", `/v2/webhooks/${id}`, { url: "https://hooks.example.org/x", events: ["network.degraded", "network.recovered"], description: "new" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id, url: "https://hooks.example.org/x", events: ["network.degraded", "network.recovered"], description: "new", enabled: true });
    expect(await (await call(apiKey, "PATCH", `/v2/webhooks/${id}`, { description: null, enabled: false })).json()).toMatchObject({ description: null, enabled: false, disabled_reason: null });
    await expectError(await call(apiKey, "PATCH", `/v2/webhooks/${id}`, { url: "http://192.168.0.1/x" }), 400, "invalid_url");
    await expectError(await call(apiKey, "PATCH", `/v2/webhooks/${id}`, { events: ["nope"] }), 400, "invalid_body");
    await expectError(await call(apiKey, "PATCH", `/v2/webhooks/${id}`, { format: "slack" }), 400, "invalid_body");
    await expectError(await call(apiKey, "PATCH", `/v2/webhooks/${id}`, {}), 400, "invalid_body");
    expect(await (await call(apiKey, "GET", `/v2/webhooks/${id}`)).json()).toMatchObject({ url: "https://hooks.example.org/x", enabled: false });
  });

  it("turns an endpoint the service disabled on again, clearing why", async () => {
    const { apiKey } = await svc.account();
    const { id } = await created(apiKey);
    await openAlerts(svc.prisma, loadServerSecret(svc.env), "https://sharecount.example.com").endpoints.disable(id, "no successful delivery for 5 days");
    expect(await (await call(apiKey, "GET", `/v2/webhooks/${id}`)).json()).toMatchObject({ enabled: false, disabled_reason: "no successful delivery for 5 days" });
    expect(await (await call(apiKey, "PATCH", `/v2/webhooks/${id}`, { enabled: true })).json()).toMatchObject({ enabled: true, disabled_reason: null });
  });

  it("deletes with 204, then the endpoint is gone", async () => {
    const { apiKey } = await svc.account();
    const { id } = await created(apiKey);
    const res = await call(apiKey, "DELETE", `/v2/webhooks/${id}`);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    await expectError(await call(apiKey, "GET", `/v2/webhooks/${id}`), 404, "webhook_not_found");
    await expectError(await call(apiKey, "DELETE", `/v2/webhooks/${id}`), 404, "webhook_not_found");
  });

  it("answers 405 to other methods, and allows PATCH from any origin", async () => {
    const { apiKey } = await svc.account();
    await expectError(await call(apiKey, "PUT", "/v2/webhooks", {}), 405, "method_not_allowed");
    const preflight = await svc.get("/v2/webhooks/we_x", { method: "OPTIONS", headers: { origin: "https://app.example", "access-control-request-method": "PATCH" } });
    expect(preflight.headers.get("access-control-allow-methods")).toContain("PATCH");
  });
});

describe("POST /v2/webhooks/{id}/secret", () => {
  it("answers a new secret; the old one keeps signing beside it for 24 hours", async () => {
    const { apiKey } = await svc.account();
    const { id, secret: first } = await created(apiKey);
    const res = await call(apiKey, "POST", `/v2/webhooks/${id}/secret`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const rolled = await res.json();
    expect(rolled).toEqual({ id, secret: expect.stringMatching(/^whsec_/), previous_secret_expires_at: new Date(clock + 24 * HOUR).toISOString() });
    expect(rolled.secret).not.toBe(first);
    const endpoints = openAlerts(svc.prisma, loadServerSecret(svc.env), "https://sharecount.example.com").endpoints;
    expect(await endpoints.signingSecrets(id, clock + 23 * HOUR)).toEqual({ current: rolled.secret, previous: first });
    expect(await endpoints.signingSecrets(id, clock + 25 * HOUR)).toEqual({ current: rolled.secret, previous: null });
    expect(await (await call(apiKey, "GET", `/v2/webhooks/${id}`)).text()).not.toContain(rolled.secret);
  });
});

describe("another account's endpoint", () => {
  it("is not found on every route, as none is", async () => {
    const owner = await svc.account();
    const other = await svc.account();
    const { id } = await created(owner.apiKey);
    const routes: [string, string, unknown?][] = [
      ["GET", `/v2/webhooks/${id}`],
      ["PATCH", `/v2/webhooks/${id}`, { enabled: false }],
      ["DELETE", `/v2/webhooks/${id}`],
      ["POST", `/v2/webhooks/${id}/secret`],
      ["POST", `/v2/webhooks/${id}/test`],
      ["GET", `/v2/webhooks/${id}/deliveries`],
      ["POST", `/v2/webhooks/${id}/deliveries/any/retry`],
      ["GET", "/v2/webhooks/we_nosuchendpoint"],
      ["GET", "/v2/webhooks/%E0%A4%A"],
    ];
    for (const [method, path, body] of routes) await expectError(await call(other.apiKey, method, path, body), 404, "webhook_not_found");
    expect((await (await call(other.apiKey, "GET", "/v2/webhooks")).json()).data).toEqual([]);
    expect(await (await call(owner.apiKey, "GET", `/v2/webhooks/${id}`)).json()).toMatchObject({ id, enabled: true });
  });
});
