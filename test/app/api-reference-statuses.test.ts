import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURE_AUDIT } from "../support/audit.ts";
import { openApiSchema, operationsOf, type Operation } from "../../dashboard/client/api-reference.ts";
import { WEBHOOK_ACTIONS_PER_MINUTE } from "../../lib/webhooks/webhook-limits.ts";
import { openApiDocument } from "../../service/openapi/document.ts";
import { bulkResultSchema, bulkSubmitAnswerSchema, quotaAnswerSchema, usageAnswerSchema, whitelistAnswerSchema } from "../../service/openapi/v1-schemas.ts";
import { startTestService, type TestService } from "../support/service.ts";

/**
 * The API reference is the API: each refusal below is provoked on the running service, and
 * the operation's entry in the OpenAPI document (what the dashboard's reference page shows) must list that
 * status with the refusal's `Type`; the answers of v1's account and bulk endpoints parse with their documented schemas.
 */
const operations = operationsOf(openApiSchema.parse(JSON.parse(openApiDocument())));
const operation = (method: string, path: string): Operation => {
  const found = operations.find((op) => op.method === method && op.path === path);
  if (!found) throw new Error(`${method} ${path} is not in the document`);
  return found;
};

let svc: TestService;
let seq = 0;
const url = () => encodeURIComponent(`https://example.com/statuses-${++seq}-${Math.random().toString(36).slice(2, 8)}`);

beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

/** A plan of its own: `dailyQuota` queries, bulk jobs of up to 10 URLs, one tracked URL. */
async function accountOn(dailyQuota: number, bulkBatchLimit = 10) {
  const name = `statuses-${++seq}`;
  await svc.prisma.plan.create({ data: { name, dailyQuota, bulkBatchLimit, customTtlAllowed: false, trackedUrlLimit: 1 } });
  return svc.account(name);
}

/** Sends the request; its answer's status and `Type` must be listed under the operation. */
async function expectDocumented(method: string, path: string, target: string, init: RequestInit = {}, expected?: { status: number; type?: string }) {
  const res = await svc.get(target, { ...init, method });
  const body = (await res.json().catch(() => ({}))) as { Type?: string };
  if (expected) expect({ status: res.status, type: body.Type }, `${method} ${target}`).toEqual(expected);
  const documented = operation(method, path).responses.find((r) => r.status === String(res.status));
  expect(documented, `${method} ${path} answered ${res.status} ${body.Type}, which its reference does not list`).toBeDefined();
  if (body.Type) expect(documented!.description, `${method} ${path} ${res.status}`).toContain(`\`${body.Type}\``);
}

const json = (body: unknown): RequestInit => ({ headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("the API reference's statuses", () => {
  it("give v1.0's used-up quota as 401 and v1.1's as 403, on single queries and bulk submissions", async () => {
    const { apiKey } = await accountOn(1);
    expect((await svc.get(`/v1.0/?url=${url()}&apikey=${apiKey}`)).status).toBe(200);
    await expectDocumented("GET", "/v1.0/", `/v1.0/?url=${url()}&apikey=${apiKey}`, {}, { status: 401, type: "quota_exceeded" });
    await expectDocumented("GET", "/v1.1/", `/v1.1/?url=${url()}&apikey=${apiKey}`, {}, { status: 403, type: "quota_exceeded" });
    const lines = { headers: { "content-type": "text/plain" }, body: "https://example.com/a\n" };
    await expectDocumented("POST", "/v1.0/bulk", `/v1.0/bulk?apikey=${apiKey}`, lines, { status: 401, type: "quota_exceeded" });
    await expectDocumented("POST", "/v1.1/bulk", `/v1.1/bulk?apikey=${apiKey}`, lines, { status: 403, type: "quota_exceeded" });
    expect(operation("GET", "/v1.0/").responses.find((r) => r.status === "403")!.description).not.toContain("quota_exceeded");
  });

  it("list the refusals of v1's endpoints", async () => {
    const free = await svc.account("free");
    const business = await svc.account("business");
    const whitelisted = await svc.account("business");
    await svc.accounts.setWhitelist(whitelisted.email, ["example.org"], true, FIXTURE_AUDIT);
    for (const version of ["1.0", "1.1"]) {
      const count = `/v${version}/`;
      await expectDocumented("GET", count, `${count}?url=${url()}`, {}, { status: 401, type: "missing_api_key" });
      await expectDocumented("GET", count, `${count}?url=${url()}&apikey=not-a-key`, {}, { status: 401, type: "invalid_api_key" });
      await expectDocumented("GET", count, `${count}?url=ftp%3A%2F%2Fx&apikey=${free.apiKey}`, {}, { status: 400, type: "invalid_url" });
      await expectDocumented("GET", count, `${count}?url=${url()}&apikey=${free.apiKey}&custom_ttl=60`, {}, { status: 403, type: "custom_ttl_not_allowed" });
      await expectDocumented("GET", count, `${count}?url=${url()}&apikey=${free.apiKey}&callback=1bad`, {}, { status: 400, type: "invalid_callback" });
      await expectDocumented("GET", count, `${count}?url=${url()}&apikey=${whitelisted.apiKey}`, {}, { status: 403, type: "domain_not_whitelisted" });

      const bulk = `/v${version}/bulk`;
      await expectDocumented("POST", bulk, `${bulk}?apikey=${free.apiKey}`, { body: "https://example.com/a" }, { status: 403, type: "bulk_not_allowed" });
      await expectDocumented("POST", bulk, `${bulk}?apikey=${business.apiKey}`, { body: "not a url" }, { status: 400, type: "no_valid_urls" });
      await expectDocumented("GET", bulk, `${bulk}?apikey=${business.apiKey}`, {}, { status: 400, type: "missing_bulk_id" });
      await expectDocumented("GET", bulk, `${bulk}?apikey=${business.apiKey}&bulk_id=${"0".repeat(40)}`, {}, { status: 404, type: "bulk_not_found" });
      await expectDocumented("GET", bulk, `${bulk}?apikey=${business.apiKey}&bulk_id=x&callback=cb`, {}, { status: 400, type: "jsonp_not_supported" });
      for (const route of ["quota", "usage", "domain_whitelist"]) {
        await expectDocumented("GET", `/v${version}/${route}`, `/v${version}/${route}`, {}, { status: 401, type: "missing_api_key" });
        await expectDocumented("GET", `/v${version}/${route}`, `/v${version}/${route}?apikey=${free.apiKey}&callback=cb`, {}, { status: 400, type: "jsonp_not_supported" });
        await expectDocumented("GET", `/v${version}/${route}`, `/v${version}/${route}?apikey=${free.apiKey}`, {}, { status: 200 });
      }
      await expectDocumented("GET", `/v${version}/status`, `/v${version}/status`, {}, { status: 200 });
      // No key is asked for: the reference must not say it can be refused for one.
      expect(operation("GET", `/v${version}/status`).responses.map((r) => r.status)).toEqual(["200", "503"]);
    }
  });

  it("describe v1's account and bulk answers as they are on the wire", async () => {
    const { apiKey } = await svc.account("business");
    expect(quotaAnswerSchema.safeParse(await (await svc.get(`/v1.0/quota?apikey=${apiKey}`)).json()).success).toBe(true);
    expect(usageAnswerSchema.safeParse(await (await svc.get(`/v1.0/usage?apikey=${apiKey}`)).json()).error).toBeUndefined();
    expect(whitelistAnswerSchema.safeParse(await (await svc.get(`/v1.0/domain_whitelist?apikey=${apiKey}`)).json()).success).toBe(true);
    const submitted = bulkSubmitAnswerSchema.parse(await (await svc.get(`/v1.0/bulk?apikey=${apiKey}`, { method: "POST", body: "https://example.com/a" })).json());
    const job = await (await svc.get(`/v1.0/bulk?apikey=${apiKey}&bulk_id=${submitted.bulk_id}&force=1`)).json();
    expect(bulkResultSchema.safeParse(job).error).toBeUndefined();
  });

  it("list the refusals of v2's endpoints", async () => {
    const free = await svc.account("free");
    const small = await accountOn(100);
    const key = `apikey=${small.apiKey}`;
    const spent = await accountOn(1);
    await svc.accounts.setWhitelist(spent.email, ["example.org"], true, FIXTURE_AUDIT);
    await expectDocumented("GET", "/v2/counts", `/v2/counts?url=${url()}&apikey=${spent.apiKey}`, {}, { status: 403, type: "domain_not_whitelisted" });
    const allowed = encodeURIComponent("https://example.org/statuses");
    await expectDocumented("GET", "/v2/counts", `/v2/counts?url=${allowed}&apikey=${spent.apiKey}`, {}, { status: 200 });
    await expectDocumented("GET", "/v2/counts", `/v2/counts?url=${allowed}&apikey=${spent.apiKey}`, {}, { status: 403, type: "quota_exceeded" });
    await expectDocumented("POST", "/v2/tracked", `/v2/tracked?${key}`, { body: "https://example.com/a" }, { status: 415, type: "invalid_body" });
    await expectDocumented("GET", "/v2/counts", `/v2/counts?url=${url()}&${key}&nope=1`, {}, { status: 400, type: "invalid_parameter" });
    await expectDocumented("GET", "/v2/counts", `/v2/counts?url=ftp%3A%2F%2Fx&${key}`, {}, { status: 400, type: "invalid_url" });
    await expectDocumented("GET", "/v2/counts", `/v2/counts?url=${url()}&${key}&callback=cb`, {}, { status: 400, type: "jsonp_not_supported" });
    await expectDocumented("POST", "/v2/tracked", `/v2/tracked?${key}&callback=cb`, json({ urls: [] }), { status: 400, type: "jsonp_not_supported" });
    await expectDocumented("GET", "/v2/networks", `/v2/networks`, {}, { status: 401, type: "missing_api_key" });
    await expectDocumented("POST", "/v2/bulk", `/v2/bulk?apikey=${free.apiKey}`, json({ urls: ["https://example.com/a"] }), { status: 403, type: "bulk_not_allowed" });
    await expectDocumented("POST", "/v2/bulk", `/v2/bulk?${key}`, { body: "https://example.com/a" }, { status: 415, type: "invalid_body" });
    await expectDocumented("POST", "/v2/bulk", `/v2/bulk?${key}`, json({ urls: "x" }), { status: 400, type: "invalid_body" });
    await expectDocumented("GET", "/v2/bulk", `/v2/bulk?${key}`, {}, { status: 400, type: "missing_bulk_id" });
    await expectDocumented("GET", "/v2/bulk", `/v2/bulk?${key}&bulk_id=${"0".repeat(40)}`, {}, { status: 404, type: "bulk_not_found" });
    const two = json({ urls: ["https://example.com/one", "https://example.com/two"] });
    await expectDocumented("POST", "/v2/tracked", `/v2/tracked?${key}`, two, { status: 403, type: "tracked_limit_exceeded" });
    await expectDocumented("POST", "/v2/tracked", `/v2/tracked?${key}`, json({ sitemap: "ftp://example.com/s.xml" }), { status: 400, type: "invalid_url" });
    await expectDocumented("GET", "/v2/tracked", `/v2/tracked?${key}&cursor=nope`, {}, { status: 400, type: "invalid_parameter" });
    await expectDocumented("DELETE", "/v2/tracked", `/v2/tracked?${key}&url=${url()}`, {}, { status: 404, type: "tracked_url_not_found" });
    await expectDocumented("GET", "/v2/tracked/url", `/v2/tracked/url?${key}&url=${url()}`, {}, { status: 404, type: "tracked_url_not_found" });
    await expectDocumented("PUT", "/v2/tracked/aliases", `/v2/tracked/aliases?${key}`, json({ url: decodeURIComponent(url()), aliases: [] }), { status: 404, type: "tracked_url_not_found" });
    await expectDocumented("GET", "/v2/imports/{id}", `/v2/imports/nope?${key}`, {}, { status: 404, type: "import_not_found" });
    await expectDocumented("DELETE", "/v2/imports/{id}", `/v2/imports/nope?${key}`, {}, { status: 404, type: "import_not_found" });
    await expectDocumented("GET", "/v2/history", `/v2/history?${key}&url=${url()}`, {}, { status: 404, type: "not_found" });
    await expectDocumented("GET", "/v2/history.csv", `/v2/history.csv?${key}&url=${url()}`, {}, { status: 404, type: "not_found" });
    await expectDocumented("GET", "/v2/tracked/status", `/v2/tracked/status?${key}`, { headers: { authorization: "Bearer other" } }, { status: 400, type: "invalid_parameter" });
    await expectDocumented("GET", "/v2/account/export", "/v2/account/export", {}, { status: 401, type: "missing_api_key" });
    await expectDocumented("GET", "/v2/account/export", `/v2/account/export?${key}&since=2026-01-01`, {}, { status: 400, type: "invalid_parameter" });
    await expectDocumented("GET", "/v2/account/export", `/v2/account/export?${key}`, {}, { status: 200 });
  });

  it("list the refusals of the webhook and event endpoints", async () => {
    const key = `apikey=${(await svc.account("free")).apiKey}`;
    const hook = { url: "https://example.com/hooks", events: ["bulk.completed"] };
    const created = await svc.get(`/v2/webhooks?${key}`, { method: "POST", ...json(hook) });
    await expectDocumented("POST", "/v2/webhooks", `/v2/webhooks?${key}`, json(hook), { status: 201 });
    const { id } = (await created.json()) as { id: string };
    const one = `/v2/webhooks/${id}?${key}`;
    await expectDocumented("POST", "/v2/webhooks", `/v2/webhooks?${key}`, json({ ...hook, events: ["nope"] }), { status: 400, type: "invalid_body" });
    await expectDocumented("POST", "/v2/webhooks", `/v2/webhooks?${key}`, json({ ...hook, url: "http://127.0.0.1/h" }), { status: 400, type: "invalid_url" });
    await expectDocumented("POST", "/v2/webhooks", `/v2/webhooks?${key}`, { body: "x" }, { status: 415, type: "invalid_body" });
    await expectDocumented("POST", "/v2/webhooks", "/v2/webhooks", json(hook), { status: 401, type: "missing_api_key" });
    await expectDocumented("GET", "/v2/webhooks", `/v2/webhooks?${key}&x=1`, {}, { status: 400, type: "invalid_parameter" });
    await expectDocumented("GET", "/v2/webhooks", `/v2/webhooks?${key}`, {}, { status: 200 });
    await expectDocumented("GET", "/v2/webhooks/{id}", `/v2/webhooks/we_none?${key}`, {}, { status: 404, type: "webhook_not_found" });
    await expectDocumented("GET", "/v2/webhooks/{id}", one, {}, { status: 200 });
    await expectDocumented("PATCH", "/v2/webhooks/{id}", one, json({ url: "ftp://example.com/h" }), { status: 400, type: "invalid_url" });
    await expectDocumented("PATCH", "/v2/webhooks/{id}", `/v2/webhooks/we_none?${key}`, json({ enabled: true }), { status: 404, type: "webhook_not_found" });
    await expectDocumented("POST", "/v2/webhooks/{id}/secret", `/v2/webhooks/${id}/secret?${key}`, {}, { status: 200 });
    await expectDocumented("POST", "/v2/webhooks/{id}/secret", `/v2/webhooks/we_none/secret?${key}`, {}, { status: 404, type: "webhook_not_found" });
    await expectDocumented("POST", "/v2/webhooks/{id}/test", `/v2/webhooks/${id}/test?${key}`, {}, { status: 202 });
    await expectDocumented("GET", "/v2/webhooks/{id}/deliveries", `/v2/webhooks/${id}/deliveries?${key}`, {}, { status: 200 });
    await expectDocumented("GET", "/v2/webhooks/{id}/deliveries", `/v2/webhooks/${id}/deliveries?${key}&cursor=x`, {}, { status: 400, type: "invalid_parameter" });
    await expectDocumented("GET", "/v2/webhooks/{id}/deliveries", `/v2/webhooks/we_none/deliveries?${key}`, {}, { status: 404, type: "webhook_not_found" });
    const retry = "/v2/webhooks/{id}/deliveries/{delivery_id}/retry";
    await expectDocumented("POST", retry, `/v2/webhooks/${id}/deliveries/none/retry?${key}`, {}, { status: 404, type: "delivery_not_found" });
    await expectDocumented("PATCH", "/v2/webhooks/{id}", one, json({ enabled: false }), { status: 200 });
    await expectDocumented("POST", "/v2/webhooks/{id}/test", `/v2/webhooks/${id}/test?${key}`, {}, { status: 409, type: "endpoint_disabled" });
    // Refused or not, each test and retry counts against the account's allowance for the minute.
    for (let i = 0; i < WEBHOOK_ACTIONS_PER_MINUTE.test; i++) await svc.get(`/v2/webhooks/${id}/test?${key}`, { method: "POST" });
    await expectDocumented("POST", "/v2/webhooks/{id}/test", `/v2/webhooks/${id}/test?${key}`, {}, { status: 429, type: "rate_limited" });
    for (let i = 0; i < WEBHOOK_ACTIONS_PER_MINUTE.retry; i++) await svc.get(`/v2/webhooks/${id}/deliveries/none/retry?${key}`, { method: "POST" });
    await expectDocumented("POST", retry, `/v2/webhooks/${id}/deliveries/none/retry?${key}`, {}, { status: 429, type: "rate_limited" });
    await expectDocumented("GET", "/v2/events", `/v2/events?${key}&type=nope`, {}, { status: 400, type: "invalid_parameter" });
    await expectDocumented("GET", "/v2/events", `/v2/events?${key}`, {}, { status: 200 });
    for (let i = 0; i < 18; i++) expect((await svc.get(`/v2/webhooks?${key}`, { method: "POST", ...json(hook) })).status).toBe(201);
    await expectDocumented("POST", "/v2/webhooks", `/v2/webhooks?${key}`, json(hook), { status: 400, type: "too_many_endpoints" });
    await expectDocumented("DELETE", "/v2/webhooks/{id}", one, {}, { status: 204 });
    await expectDocumented("DELETE", "/v2/webhooks/{id}", one, {}, { status: 404, type: "webhook_not_found" });
  });
});
