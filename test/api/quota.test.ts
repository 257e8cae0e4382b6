import http from "node:http";
import { FIXTURE_AUDIT } from "../support/audit.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../lib/quota/day.ts";
import { startTestService, todayUtc, type TestService } from "../support/service.ts";

let svc: TestService;
let seq = 0;
const freshUrl = () => `https://example.com/quota-${++seq}-${Math.random().toString(36).slice(2, 8)}`;

beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

async function quota(apiKey: string) {
  return (await svc.get(`/v1.0/quota?apikey=${apiKey}`)).json();
}

/** A plan with a small quota, so tests reach the limit quickly. */
async function accountWithQuota(dailyQuota: number) {
  const name = `q${dailyQuota}-${++seq}`;
  await svc.prisma.plan.create({ data: { name, dailyQuota, bulkBatchLimit: 0, customTtlAllowed: false } });
  return svc.account(name);
}

describe("daily quota", () => {
  it("is exact under concurrency: 2,000 simultaneous requests with 500 left, exactly 500 succeed", async () => {
    const { apiKey } = await svc.account("free");
    const url = encodeURIComponent(freshUrl());
    const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
    const { port } = new URL(svc.baseUrl);
    const request = () =>
      new Promise<number>((resolve, reject) => {
        http
          .get({ host: "127.0.0.1", port, path: `/v1.0/?url=${url}&apikey=${apiKey}`, agent }, (res) => {
            res.resume();
            res.on("end", () => resolve(res.statusCode!));
          })
          .on("error", reject);
      });
    const statuses = await Promise.all(Array.from({ length: 2000 }, request));
    agent.destroy();
    expect(statuses.filter((s) => s === 200)).toHaveLength(500);
    expect(statuses.filter((s) => s === 401)).toHaveLength(1500);
    expect(await quota(apiKey)).toMatchObject({
      plan: "free",
      quota_used_today: 500,
      quota_remaining_today: 0,
      quota_allocated_today: 500,
    });
    const usage = await (await svc.get(`/v1.0/usage?apikey=${apiKey}`)).json();
    expect(usage[todayUtc()].queries).toBe(500);
  });

  it("answers quota_exceeded with 401 on v1.0 and 403 on v1.1, saying when it resets", async () => {
    const { apiKey } = await accountWithQuota(1);
    expect((await svc.get(`/v1.0/?url=${encodeURIComponent(freshUrl())}&apikey=${apiKey}`)).status).toBe(200);
    const v10 = await svc.get(`/v1.0/?url=${encodeURIComponent(freshUrl())}&apikey=${apiKey}`);
    const v11 = await svc.get(`/v1.1/?url=${encodeURIComponent(freshUrl())}&apikey=${apiKey}`);
    expect(v10.status).toBe(401);
    expect(v11.status).toBe(403);
    const body = await v10.json();
    expect(body.Type).toBe("quota_exceeded");
    const midnight = `${addDays(todayUtc(), 1)}T00:00:00.000Z`;
    expect(body.Error).toContain(midnight);
    expect(Number(v10.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await v11.json()).Type).toBe("quota_exceeded");
    expect((await quota(apiKey)).quota_resets_at).toBe(midnight);
  });

  it("counts successful queries, cached ones included, and never errors", async () => {
    const { apiKey } = await svc.account("business");
    const url = encodeURIComponent(freshUrl());
    const first = await svc.get(`/v1.0/?url=${url}&apikey=${apiKey}`);
    const cached = await svc.get(`/v1.0/?url=${url}&apikey=${apiKey}`);
    expect(cached.headers.get("x-sharecount-cache")).toBe("HIT");
    expect(first.headers.get("x-quota-remaining")).toBe("99999");
    expect(cached.headers.get("x-quota-remaining")).toBe("99998");
    await svc.get(`/v1.0/?url=not-a-url&apikey=${apiKey}`);
    await svc.get(`/v1.0/?apikey=${apiKey}`);
    await svc.get(`/v1.0/?url=${url}&apikey=${apiKey}&callback=bad-name`);
    await svc.get(`/v1.0/?url=${url}&apikey=${apiKey}&custom_ttl=10`);
    await svc.get(`/v1.0/quota?apikey=${apiKey}`);
    expect((await quota(apiKey)).quota_used_today).toBe(2);
  });

  it("answers the quota object", async () => {
    const { apiKey } = await svc.account("plus");
    await svc.get(`/v1.1/?url=${encodeURIComponent(freshUrl())}&apikey=${apiKey}`);
    expect(await quota(apiKey)).toEqual({
      quota_used_today: 1,
      plan: "plus",
      quota_remaining_today: 9999,
      quota_allocated_today: 10000,
      quota_resets_at: `${addDays(todayUtc(), 1)}T00:00:00.000Z`,
    });
  });

  it("follows a plan change at once", async () => {
    const { apiKey, email } = await accountWithQuota(1);
    await svc.get(`/v1.0/?url=${encodeURIComponent(freshUrl())}&apikey=${apiKey}`);
    expect((await svc.get(`/v1.0/?url=${encodeURIComponent(freshUrl())}&apikey=${apiKey}`)).status).toBe(401);
    await svc.accounts.setPlan(email, "plus", FIXTURE_AUDIT);
    expect((await svc.get(`/v1.0/?url=${encodeURIComponent(freshUrl())}&apikey=${apiKey}`)).status).toBe(200);
    expect(await quota(apiKey)).toMatchObject({ plan: "plus", quota_used_today: 2, quota_remaining_today: 9998 });
  });
});

describe("usage history", () => {
  it("lists the last 90 days, every day, with the queries and the quota allocated that day", async () => {
    const { apiKey, email } = await svc.account("free");
    const account = await svc.prisma.account.findUniqueOrThrow({ where: { email } });
    const today = todayUtc();
    // History as it would have been written: on free from 40 days ago with some usage, plus from 10 days ago.
    await svc.prisma.quotaAllocation.deleteMany({ where: { accountId: account.id } });
    await svc.prisma.quotaAllocation.createMany({
      data: [
        { accountId: account.id, day: addDays(today, -40), dailyQuota: 500 },
        { accountId: account.id, day: addDays(today, -10), dailyQuota: 10000 },
      ],
    });
    await svc.prisma.dailyUsage.createMany({
      data: [
        { accountId: account.id, day: addDays(today, -30), queries: 123 },
        { accountId: account.id, day: addDays(today, -5), queries: 4567 },
        { accountId: account.id, day: addDays(today, -200), queries: 9 },
      ],
    });
    await svc.accounts.setPlan(email, "business", FIXTURE_AUDIT);
    await svc.get(`/v1.0/?url=${encodeURIComponent(freshUrl())}&apikey=${apiKey}`);

    const usage = await (await svc.get(`/v1.0/usage?apikey=${apiKey}`)).json();
    const days = Object.keys(usage);
    expect(days).toHaveLength(90);
    expect(days[0]).toBe(addDays(today, -89));
    expect(days[89]).toBe(today);
    days.forEach((day, i) => {
      expect(day).toBe(addDays(today, -89 + i));
      expect(usage[day].date).toBe(day);
    });
    expect(usage[addDays(today, -41)]).toEqual({ date: addDays(today, -41), queries: 0, quota: 0 });
    expect(usage[addDays(today, -30)]).toEqual({ date: addDays(today, -30), queries: 123, quota: 500 });
    expect(usage[addDays(today, -5)]).toEqual({ date: addDays(today, -5), queries: 4567, quota: 10000 });
    expect(usage[addDays(today, -1)]).toEqual({ date: addDays(today, -1), queries: 0, quota: 10000 });
    expect(usage[today]).toEqual({ date: today, queries: 1, quota: 100000 });
  });
});

describe("authentication", () => {
  it("refuses a missing or unknown key on every endpoint with a clear error", async () => {
    for (const path of ["/v1.0/?url=https%3A%2F%2Fa.com%2F", "/v1.0/quota?", "/v1.0/usage?", "/v1.0/domain_whitelist?", "/v1.1/bulk?bulk_id=x"]) {
      const missing = await svc.get(path);
      expect(missing.status).toBe(401);
      expect(await missing.json()).toMatchObject({ Type: "missing_api_key" });
      const unknown = await svc.get(`${path}&apikey=${"0".repeat(40)}`);
      expect(unknown.status).toBe(401);
      expect(await unknown.json()).toMatchObject({ Type: "invalid_api_key" });
    }
  });
});
