import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccountDeletion } from "../../lib/accounts/account-deletion.ts";
import { openOutbox } from "../../lib/mail/outbox.ts";
import { loadServerSecret } from "../../lib/security/secrets.ts";
import { accountExportSchema } from "../../lib/v2/export-schemas.ts";
import { openApiDocument } from "../../service/openapi/document.ts";
import { expectError } from "../support/api-error.ts";
import { bearer } from "../support/bearer.ts";
import { startTestService, todayUtc, type TestService } from "../support/service.ts";

/** GET /v2/account/export on the running service (both stacks), and an account deleted under it. */
let svc: TestService;
let seq = 0;
const fresh = () => `https://example.com/export-${++seq}-${Math.random().toString(36).slice(2, 8)}`;

beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

const post = (path: string, apiKey: string, body: unknown) =>
  svc.get(path, { method: "POST", headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" }, body: JSON.stringify(body) });

describe("GET /v2/account/export", () => {
  it("answers the account's data as a JSON attachment named after its address and the day, with the key as bearer or apikey", async () => {
    const { email, apiKey } = await svc.account("business");
    const urls = [fresh(), fresh()];
    expect((await post("/v2/tracked", apiKey, { urls })).status).toBe(200);
    expect((await svc.get(`/v2/counts?url=${encodeURIComponent(fresh())}&apikey=${apiKey}`)).status).toBe(200);
    const other = await svc.account("business");
    expect((await post("/v2/tracked", other.apiKey, { urls: [fresh()] })).status).toBe(200);

    const res = await svc.get("/v2/account/export", bearer(apiKey));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="sharecount-export-${email}-${todayUtc()}.json"`);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const text = await res.text();
    const doc = accountExportSchema.parse(JSON.parse(text));
    expect(doc.profile).toMatchObject({ email, has_password: false, sign_in_providers: [] });
    expect(doc.plan.name).toBe("business");
    expect(doc.tracked_urls.map((t) => t.url)).toEqual(urls);
    expect(doc.usage.days).toEqual([{ day: todayUtc(), served: 3, refused: { quota: 0, whitelist: 0, invalid: 0 } }]);
    expect(text).not.toContain(apiKey);
    expect(text).not.toContain(other.email);

    // The same document with `apikey`, and no quota spent by either.
    const again = accountExportSchema.parse(await (await svc.get(`/v2/account/export?apikey=${apiKey}`)).json());
    expect(again.usage.days[0]!.served).toBe(3);
  });

  it("refuses a request without a valid key, or with parameters it does not take, as the OpenAPI document says", async () => {
    const { apiKey } = await svc.account("free");
    await expectError(await svc.get("/v2/account/export"), 401, "missing_api_key");
    await expectError(await svc.get("/v2/account/export", bearer("not-a-key")), 401, "invalid_api_key");
    await expectError(await svc.get(`/v2/account/export?apikey=${apiKey}&since=2026-01-01`), 400, "invalid_parameter");
    await expectError(await svc.get(`/v2/account/export?apikey=${apiKey}`, { method: "POST" }), 405, "method_not_allowed");
    const operation = JSON.parse(openApiDocument()).paths["/v2/account/export"].get;
    expect(Object.keys(operation.responses).sort()).toEqual(["200", "400", "401", "403", "429", "503"]);
    expect(operation.responses["200"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/AccountExport" });
  });
});

describe("an account deleted while the API runs", () => {
  it("has its key refused at once, on every endpoint, while other accounts go on", async () => {
    const { email, apiKey } = await svc.account("business");
    const other = await svc.account("business");
    expect((await post("/v2/tracked", apiKey, { urls: [fresh()] })).status).toBe(200);
    // Answered once, so the key is in the API's account cache when the account goes.
    expect((await svc.get(`/v1.0/quota?apikey=${apiKey}`)).status).toBe(200);
    const id = (await svc.accounts.idOf(email))!;
    const deletion = new AccountDeletion({
      prisma: svc.prisma,
      outbox: openOutbox(svc.prisma, loadServerSecret(svc.env)),
      clock: svc.clock,
      bulk: svc.runtime.store.bulk,
      linkOrigin: "http://localhost",
      redis: svc.env.REDIS_URL ? { url: svc.env.REDIS_URL, prefix: svc.env.REDIS_PREFIX } : null,
    });
    await deletion.delete(id);

    await expectError(await svc.get(`/v1.0/quota?apikey=${apiKey}`), 401, "invalid_api_key");
    await expectError(await svc.get(`/v1.0/?url=${encodeURIComponent(fresh())}&apikey=${apiKey}`), 401, "invalid_api_key");
    await expectError(await svc.get("/v2/account/export", bearer(apiKey)), 401, "invalid_api_key");
    await expectError(await svc.get("/v2/tracked", bearer(apiKey)), 401, "invalid_api_key");
    expect((await svc.get(`/v1.0/quota?apikey=${other.apiKey}`)).status).toBe(200);
    expect(await svc.prisma.mailMessage.count({ where: { recipient: email, kind: "account_deleted", accountId: null } })).toBe(1);
  });
});
