import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SandboxStats } from "../../service/sandbox/control.ts";
import { deriveCounts } from "../../service/sandbox/derive-counts.ts";
import { until } from "../support/processes.ts";
import { todayUtc } from "../support/service.ts";
import { scaleDeployment } from "./deployment.ts";

/*
 * Bulk work across processes: one API process and two bulk workers (`npm run start:worker`) on the BullMQ
 * queue. One worker is killed with SIGKILL halfway through a 10,000-URL job; BullMQ's stalled-job check
 * hands the URLs it held to the other, and the database commit keeps every URL answered and counted once.
 */

const N = 10_000;
let deployment: Awaited<ReturnType<typeof scaleDeployment>>;

beforeAll(async () => {
  // A short lock, so the URLs held by the killed worker come back within seconds (30 s by default).
  deployment = await scaleDeployment({ BULK_LOCK_MS: "2000", BULK_CONCURRENCY: "32", SANDBOX_LATENCY_MS: "20" });
});
afterAll(() => deployment?.close());

interface BulkAnswer {
  data: Record<string, Record<string, unknown>> | unknown[];
  _meta: { urls_completed: number; urls_queued: number; completed: boolean; bulk_id: string };
}

const stats = async (sandboxUrl: string) => (await (await fetch(`${sandboxUrl}/__sandbox/stats`)).json()) as SandboxStats;

describe("two bulk workers on PostgreSQL + Redis", () => {
  it(
    "share a 10,000-URL job; with one killed by kill -9 halfway, the job completes with every URL answered once and counted once",
    async () => {
      const [api, a, b] = await Promise.all([deployment.api("api"), deployment.worker("worker-a"), deployment.worker("worker-b")]);
      expect(api.child.output.join("")).toMatch(/"worker":false/);
      const email = "two-workers@example.com";
      const { apiKey } = await deployment.accounts.create({ email, plan: "dedicated" });
      const account = await deployment.prisma.account.findUniqueOrThrow({ where: { email } });

      const urls = Array.from({ length: N }, (_, i) => `https://example.com/workers-${i}`);
      const submitted = await fetch(`${api.url}/v1.0/bulk?apikey=${apiKey}`, { method: "POST", body: urls.join("\n") });
      expect(submitted.status).toBe(200);
      const { bulk_id: bulkId, count } = (await submitted.json()) as { bulk_id: string; count: number };
      expect(count).toBe(N);
      const retrieve = async () => (await (await fetch(`${api.url}/v1.0/bulk?bulk_id=${bulkId}&apikey=${apiKey}`)).json()) as BulkAnswer;

      const halfway = await until("half of the job", retrieve, (r) => r._meta.urls_completed >= N / 2, 90_000, [api.child, a.child, b.child]);
      // Both workers had taken part: each one's sandbox was asked for URLs.
      const [byA, byB] = await Promise.all([stats(a.sandboxUrl), stats(b.sandboxUrl)]);
      expect(Object.keys(byA.facebookByUrl).length).toBeGreaterThan(0);
      expect(Object.keys(byB.facebookByUrl).length).toBeGreaterThan(0);
      a.child.process.kill("SIGKILL");
      expect(await a.child.exited).toEqual({ code: null, signal: "SIGKILL" });
      expect(halfway._meta.completed).toBe(false);

      const done = await until("the job to complete", retrieve, (r) => r._meta.completed, 120_000, [api.child, b.child]);
      expect(done._meta).toEqual({ urls_completed: N, urls_queued: N, completed: true, bulk_id: bulkId });

      // Answered once: one result per URL, and it is that URL's count.
      const data = done.data as Record<string, Record<string, unknown>>;
      expect(Object.keys(data).sort()).toEqual([...urls].sort());
      for (const url of urls) expect(data[url]!.Pinterest).toBe(deriveCounts(url).pinterest);
      const rows = await deployment.prisma.bulkUrl.count({ where: { jobId: bulkId, completedAt: { not: null } } });
      expect(rows).toBe(N);

      // Counted once: the usage row and the quota endpoint say N.
      const usage = await deployment.prisma.dailyUsage.findUniqueOrThrow({
        where: { accountId_day: { accountId: account.id, day: todayUtc() } },
      });
      expect(usage.queries).toBe(N);
      const quota = await (await fetch(`${api.url}/v1.0/quota?apikey=${apiKey}`)).json();
      expect(quota).toMatchObject({ quota_used_today: N });
      // Redis's counter is never behind; it is ahead by at most the URLs the killed worker had reserved but
      // not stored (they stay counted: quota errs on the side of the limit, see RedisQuotaCounter).
      const redis = new Redis(deployment.redisUrl);
      const counted = Number(await redis.hget(`${deployment.redisPrefix}:quota:${todayUtc()}:${account.id}`, "n"));
      redis.disconnect();
      expect(counted).toBeGreaterThanOrEqual(N);
      expect(counted - N).toBeLessThanOrEqual(32);
    },
    240_000,
  );
});
