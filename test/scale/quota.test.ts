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
  // Starts two API processes: 17 s on a slow machine beside two CPU hogs.
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

    // Both processes write Redis's total to the row within a second.
    const row = async () =>
      (await deployment.prisma.dailyUsage.findUnique({ where: { accountId_day: { accountId: account.id, day: todayUtc() } } }))?.queries ?? 0;
    expect(await rowReaching(row, 500)).toBe(500);
    // The counters that decided are Redis's, shared by both processes.
    const redis = new Redis(deployment.redisUrl);
    expect(await redis.hget(`${deployment.redisPrefix}:quota:${todayUtc()}:${account.id}`, "n")).toBe("500");
    redis.disconnect();
    for (const api of [a, b]) {
      const quota = await (await fetch(`${api.url}/v1.0/quota?apikey=${apiKey}`)).json();
      expect(quota).toMatchObject({ quota_used_today: 500, quota_remaining_today: 0, quota_allocated_today: 500 });
    }
  }, 90_000);

  // Starts two more API processes: 18 s on a slow machine beside two CPU hogs.
  it("an API process killed with kill -9 mid-request loses no answered query, and the quota holds", async () => {
    // Slow networks, so the killed process has requests in flight.
    const [c, d] = await Promise.all([deployment.api("api-c", { SANDBOX_LATENCY_MS: "400" }), deployment.api("api-d", { SANDBOX_LATENCY_MS: "400" })]);
    const email = "killed-api@example.com";
    const { apiKey } = await deployment.accounts.create({ email, plan: "free" });
    const account = await deployment.prisma.account.findUniqueOrThrow({ where: { email } });
    const query = (base: string, i: number) =>
      fetch(`${base}/v1.0/?url=${encodeURIComponent(`https://example.com/killed-${i}`)}&apikey=${apiKey}`).then(
        (r) => r.status,
        () => 0,
      );
    const first = Array.from({ length: 200 }, (_, i) => query(i % 2 ? c.url : d.url, i));
    await new Promise((resolve) => setTimeout(resolve, 150));
    c.child.process.kill("SIGKILL");
    const statuses = await Promise.all(first);
    const answered = statuses.filter((s) => s === 200).length;
    expect(statuses.filter((s) => s === 0).length).toBeGreaterThan(0);

    // Every answered query is counted in Redis at once, and in the usage row within the survivor's next flush
    // (a second); at most the killed process's unanswered ones on top.
    const row = async () =>
      (await deployment.prisma.dailyUsage.findUnique({ where: { accountId_day: { accountId: account.id, day: todayUtc() } } }))?.queries ?? 0;
    const counted = await rowReaching(row, answered);
    expect(counted).toBeLessThanOrEqual(200);

    // The survivor goes on from there, and never past the quota.
    const rest = await Promise.all(Array.from({ length: 600 }, (_, i) => query(d.url, 1000 + (i % 5))));
    const more = rest.filter((s) => s === 200).length;
    expect(rest.filter((s) => s !== 200 && s !== 401)).toEqual([]);
    expect(counted + more).toBeLessThanOrEqual(500);
    // Reserved by the killed process and never answered: they stay counted (quota errs on the side of the limit).
    const final = await rowReaching(row, counted + more);
    expect(final).toBeLessThanOrEqual(500);
    expect(final).toBeGreaterThanOrEqual(500 - 100);
  }, 90_000);
});

/** The row once it reached `least` (the processes' flushes write it within a second or so); fails after 15 s. */
async function rowReaching(row: () => Promise<number>, least: number): Promise<number> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const n = await row();
    if (n >= least || Date.now() > deadline) {
      expect(n).toBeGreaterThanOrEqual(least);
      return n;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
