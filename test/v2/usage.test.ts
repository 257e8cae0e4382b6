import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURE_AUDIT } from "../support/audit.ts";
import { addDays } from "../../lib/quota/day.ts";
import { openStore } from "../../lib/store/open.ts";
import { expectError } from "../support/api-error.ts";
import { until } from "../support/processes.ts";
import { startTestService, todayUtc, type TestService } from "../support/service.ts";

/** GET /v2/usage end to end on the real service: refused count queries counted by reason, and the report's range. */
let svc: TestService;
let seq = 0;
const fresh = (host = "example.com") => `https://${host}/usage-${++seq}-${Math.random().toString(36).slice(2, 8)}`;

beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

interface UsageDay {
  day: string;
  served: number;
  refused: { quota: number; whitelist: number; invalid: number };
  quota: number;
}
const usage = async (apiKey: string, query = ""): Promise<UsageDay[]> => {
  const res = await svc.get(`/v2/usage?apikey=${apiKey}${query}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { days: UsageDay[] }).days;
};
const refusedToday = async (apiKey: string) => (await usage(apiKey, `&from=${todayUtc()}`)).at(-1)!.refused;
const count = (path: string, apiKey: string, url: string, extra = "") => svc.get(`${path}?url=${encodeURIComponent(url)}&apikey=${apiKey}${extra}`);

/** An account on a plan of one query a day, so the quota is used up at once. */
async function accountWithOneQuery() {
  const name = `one-${++seq}`;
  await svc.prisma.plan.create({ data: { name, dailyQuota: 1, bulkBatchLimit: 0, customTtlAllowed: false } });
  return svc.account(name);
}

describe("GET /v2/usage", () => {
  it("answers every day of the last 30 by default, oldest first, zeros filled, with the queries served today", async () => {
    const { apiKey } = await svc.account("free");
    for (let i = 0; i < 2; i++) expect((await count("/v1.0/", apiKey, fresh())).status).toBe(200);
    const days = await usage(apiKey);
    expect(days.map((d) => d.day)).toEqual(Array.from({ length: 30 }, (_, i) => addDays(todayUtc(), i - 29)));
    expect(days.at(-1)).toEqual({ day: todayUtc(), served: 2, refused: { quota: 0, whitelist: 0, invalid: 0 }, quota: 500 });
    // The days before the account existed are there, with no quota.
    expect(days[0]).toEqual({ day: addDays(todayUtc(), -29), served: 0, refused: { quota: 0, whitelist: 0, invalid: 0 }, quota: 0 });
  });

  it("counts each refused count query by reason, on v1.0, v1.1 and v2, for the account whose key sent it only", async () => {
    const { email, apiKey } = await accountWithOneQuery();
    const other = await svc.account("free");
    await svc.accounts.setWhitelist(email, ["example.com"], true, FIXTURE_AUDIT);
    expect((await count("/v1.0/", apiKey, fresh())).status).toBe(200);

    // quota: the one query is spent.
    expect((await count("/v1.0/", apiKey, fresh())).status).toBe(401);
    expect((await count("/v1.1/", apiKey, fresh())).status).toBe(403);
    await expectError(await count("/v2/counts", apiKey, fresh()), 403, "quota_exceeded");
    // whitelist: checked before the quota.
    await expectError(await count("/v1.1/", apiKey, fresh("elsewhere.org")), 403, "domain_not_whitelisted");
    await expectError(await count("/v2/counts", apiKey, fresh("elsewhere.org")), 403, "domain_not_whitelisted");
    // invalid: the account's key, a request that is not valid.
    await expectError(await svc.get(`/v1.0/?apikey=${apiKey}`), 400, "invalid_url");
    await expectError(await count("/v1.0/", apiKey, "ftp://example.com/"), 400, "invalid_url");
    await expectError(await count("/v1.0/", apiKey, fresh(), "&custom_ttl=soon"), 400, "invalid_custom_ttl");
    await expectError(await count("/v1.0/", apiKey, fresh(), "&custom_ttl=60"), 403, "custom_ttl_not_allowed");
    await expectError(await count("/v2/counts", apiKey, fresh(), "&networks=myspace"), 400, "invalid_parameter");

    // Not this account's: an unknown key names no account, and a refusal before the key is read is no one's.
    await expectError(await count("/v1.0/", "0".repeat(40), fresh()), 401, "invalid_api_key");
    await expectError(await count("/v1.0/", apiKey, fresh(), "&callback=1nvalid"), 400, "invalid_callback");
    // Other v2 routes are no count queries.
    await expectError(await svc.get(`/v2/history?apikey=${apiKey}&url=${encodeURIComponent(fresh("elsewhere.org"))}`), 403, "domain_not_whitelisted");

    const expected = { quota: 3, whitelist: 2, invalid: 5 };
    await until("the refusals to be written", () => refusedToday(apiKey), (r) => JSON.stringify(r) === JSON.stringify(expected), 10_000);
    expect((await usage(apiKey)).at(-1)).toEqual({ day: todayUtc(), served: 1, refused: expected, quota: 1 });
    expect(await refusedToday(other.apiKey)).toEqual({ quota: 0, whitelist: 0, invalid: 0 });
  });

  it("answers the range asked for, both days included, up to 366 days", async () => {
    const { apiKey } = await svc.account("free");
    const days = await usage(apiKey, "&from=2024-02-27&to=2024-03-01");
    expect(days.map((d) => d.day)).toEqual(["2024-02-27", "2024-02-28", "2024-02-29", "2024-03-01"]);
    expect(await usage(apiKey, "&from=2025-01-01&to=2025-01-01")).toHaveLength(1);
    expect(await usage(apiKey, "&from=2024-01-01&to=2024-12-31")).toHaveLength(366);
    // One end given: `to` alone ends the default 30 days, `from` alone runs to today.
    expect((await usage(apiKey, "&to=2025-03-31"))[0]!.day).toBe("2025-03-02");
    const since = await usage(apiKey, `&from=${addDays(todayUtc(), -6)}`);
    expect(since.map((d) => d.day)).toEqual(Array.from({ length: 7 }, (_, i) => addDays(todayUtc(), i - 6)));
  });

  it("refuses a bad date, from after to, a range over 366 days and unknown parameters with 400 invalid_parameter", async () => {
    const { apiKey } = await svc.account("free");
    for (const query of ["&from=2026-02-30", "&to=yesterday", "&from=2026-1-5", "&from=2025-03-02&to=2025-03-01", "&from=2024-01-01&to=2025-01-01", "&day=2025-01-01"]) {
      const body = await expectError(await svc.get(`/v2/usage?apikey=${apiKey}${query}`), 400, "invalid_parameter");
      expect(body.Error, query).not.toBe("");
    }
    expect((await expectError(await svc.get(`/v2/usage?apikey=${apiKey}&from=2025-03-02&to=2025-03-01`), 400, "invalid_parameter")).Error).toMatch(
      /from must be on or before to/,
    );
    await expectError(await svc.get("/v2/usage"), 401, "missing_api_key");
    await expectError(await svc.get("/v2/usage?apikey=nope"), 401, "invalid_api_key");
  });
});

describe("the OpenAPI document", () => {
  it("describes GET /v2/usage: its range, its days, and what each refusal reason counts", async () => {
    const doc = await (await svc.get("/v2/openapi.json")).json();
    const operation = doc.paths["/v2/usage"].get;
    expect(operation.parameters.map((p: { name: string }) => p.name).sort()).toEqual(["apikey", "from", "to"]);
    expect(operation.description).toMatch(/at most 366 days/);
    expect(Object.keys(doc.components.schemas.RefusedQueries.properties)).toEqual(["quota", "whitelist", "invalid"]);
    expect(doc.components.schemas.RefusedQueries.description).toMatch(/unknown or rolled key is not counted/);
    expect(operation.responses["200"].content["application/json"].schema.$ref).toBe("#/components/schemas/UsageReport");
  });
});

describe("refused queries and the clock", () => {
  it("count on the caller's quota day, and a clean stop writes them before the store closes", async () => {
    // 23:30 UTC on March 9 is March 10 in Tokyo.
    const pinned = await startTestService({ QUOTA_TIMEZONE: "Asia/Tokyo" }, { now: () => Date.UTC(2026, 2, 9, 23, 30) });
    try {
      const { apiKey } = await pinned.account("free");
      await expectError(await pinned.get(`/v1.0/?apikey=${apiKey}&url=${encodeURIComponent("ftp://example.com/")}`), 400, "invalid_url");
      await expectError(await pinned.get(`/v1.0/?apikey=${apiKey}&url=${encodeURIComponent("ftp://example.com/")}`), 400, "invalid_url");
      const days = (await (await pinned.get(`/v2/usage?apikey=${apiKey}`)).json()) as { days: UsageDay[] };
      expect(days.days.at(-1)!.day).toBe("2026-03-10");
      // Stopped at once, well within the write interval: the stop writes them.
      await pinned.stopRuntime();
      const store = openStore(pinned.env.DATABASE_URL);
      try {
        const accountId = (await pinned.prisma.account.findFirstOrThrow({ where: { plan: { name: "free" } }, select: { id: true } })).id;
        expect(await store.usage.refusalsBetween(accountId, "2026-03-01", "2026-03-31")).toEqual([
          { day: "2026-03-10", refused: { quota: 0, whitelist: 0, invalid: 2 } },
        ]);
      } finally {
        await store.close();
      }
    } finally {
      await pinned.close();
    }
  });
});
