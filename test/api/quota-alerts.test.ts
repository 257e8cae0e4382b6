import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, todayUtc, type TestService } from "../support/service.ts";

/*
 * quota.warning and quota.exhausted through the real service (in the `scale` project on PostgreSQL with the
 * Redis quota counter): exactly once per account and quota day, however many queries cross the line at once.
 */

let svc: TestService;
let seq = 0;

beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

async function accountWithQuota(dailyQuota: number) {
  const name = `alerts-q${dailyQuota}-${++seq}`;
  await svc.prisma.plan.create({ data: { name, dailyQuota, bulkBatchLimit: 0, customTtlAllowed: false } });
  const { apiKey, email } = await svc.account(name);
  const { id } = await svc.prisma.account.findUniqueOrThrow({ where: { email } });
  return { apiKey, id };
}

function query(apiKey: string, agent: http.Agent, i: number): Promise<number> {
  const { port } = new URL(svc.baseUrl);
  const path = `/v1.0/?url=${encodeURIComponent(`https://example.com/alerts-${i % 5}`)}&apikey=${apiKey}`;
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path, agent }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode!));
      })
      .on("error", reject);
  });
}

const eventsOf = async (accountId: string) => {
  await svc.runtime.alerting.quota.settled();
  // By type: the crossing batch's refusals may be written before its warning.
  return svc.prisma.alertEvent.findMany({ where: { accountId }, orderBy: { type: "desc" } });
};

describe("quota alerts", () => {
  it("200 simultaneous queries crossing 80 %, then past the quota: one quota.warning and one quota.exhausted", async () => {
    const { apiKey, id } = await accountWithQuota(250);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });
    // 150 used first: the next 200 cross 200 (80 %) together.
    await Promise.all(Array.from({ length: 150 }, (_, i) => query(apiKey, agent, i)));
    expect(await eventsOf(id)).toEqual([]);
    const crossing = await Promise.all(Array.from({ length: 200 }, (_, i) => query(apiKey, agent, i)));
    expect(crossing.filter((status) => status === 200)).toHaveLength(100);
    const more = await Promise.all(Array.from({ length: 50 }, (_, i) => query(apiKey, agent, i)));
    agent.destroy();
    expect(more.every((status) => status === 401)).toBe(true);

    const events = await eventsOf(id);
    expect(events.map((e) => [e.type, e.onceKey])).toEqual([
      ["quota.warning", `quota.warning:${todayUtc()}`],
      ["quota.exhausted", `quota.exhausted:${todayUtc()}`],
    ]);
    const warning = JSON.parse(events[0]!.data);
    expect(warning).toMatchObject({ quota: 250, day: todayUtc() });
    expect(warning.used).toBeGreaterThanOrEqual(200);
    expect(JSON.parse(events[1]!.data)).toEqual({ used: 250, quota: 250, day: todayUtc() });
  });

  it("a quota too small to warn before it is used up still says so once", async () => {
    const { apiKey, id } = await accountWithQuota(1);
    const agent = new http.Agent({ keepAlive: true });
    expect(await query(apiKey, agent, 0)).toBe(200);
    expect(await Promise.all([1, 2, 3].map((i) => query(apiKey, agent, i)))).toEqual([401, 401, 401]);
    agent.destroy();
    expect((await eventsOf(id)).map((e) => e.type)).toEqual(["quota.warning", "quota.exhausted"]);
  });
});
