import http from "node:http";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { todayUtc } from "../support/service.ts";
import { scaleDeployment } from "./deployment.ts";

/*
 * The quota across processes: two API processes (as `npm run start:api` runs them with REDIS_URL) share
 * one PostgreSQL database and one Redis, and the quota counters hold across both.
 */

let deployment: Awaited<ReturnType<typeof scaleDeployment>>;

beforeAll(async () => {
  deployment = await scaleDeployment();
});
afterAll(() => deployment?.close());

function get(base: string, path: string, agent: http.Agent): Promise<{ status: number; remaining: string | undefined }> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path, agent }, (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode!, remaining: res.headers["x-quota-remaining"] as string | undefined }));
      })
      .on("error", reject);
  });
}

describe("two API processes on PostgreSQL + Redis", () => {
  it("2,000 simultaneous requests over both, for an account with 500 left: exactly 500 succeed and the usage row says 500", async () => {
    const [a, b] = await Promise.all([deployment.api("api-a"), deployment.api("api-b")]);
    const email = "two-apis@example.com";
    const { apiKey } = await deployment.accounts.create({ email, plan: "free" });
    const account = await deployment.prisma.account.findUniqueOrThrow({ where: { email } });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
    // A handful of URLs: some answers come from the networks, most from the shared cache.
    const path = (i: number) => `/v1.0/?url=${encodeURIComponent(`https://example.com/two-apis-${i % 7}`)}&apikey=${apiKey}`;
    const answers = await Promise.all(Array.from({ length: 2000 }, (_, i) => get(i % 2 ? a.url : b.url, path(i), agent)));
    agent.destroy();

    expect(answers.filter((r) => r.status === 200)).toHaveLength(500);
    expect(answers.filter((r) => r.status === 401)).toHaveLength(1500);
    // Every success was counted once: the remaining counts it reported are 0..499, each once.
    const remaining = answers.filter((r) => r.status === 200).map((r) => Number(r.remaining));
    expect(remaining.sort((x, y) => x - y)).toEqual(Array.from({ length: 500 }, (_, i) => i));

    const row = await deployment.prisma.dailyUsage.findUniqueOrThrow({
      where: { accountId_day: { accountId: account.id, day: todayUtc() } },
    });
    expect(row.queries).toBe(500);
    // The counters that decided are Redis's, shared by both processes.
    const redis = new Redis(deployment.redisUrl);
    expect(await redis.hget(`${deployment.redisPrefix}:quota:${todayUtc()}:${account.id}`, "n")).toBe("500");
    redis.disconnect();
    for (const api of [a, b]) {
      const quota = await (await fetch(`${api.url}/v1.0/quota?apikey=${apiKey}`)).json();
      expect(quota).toMatchObject({ quota_used_today: 500, quota_remaining_today: 0, quota_allocated_today: 500 });
    }
  });
});
