import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BULK_QUEUE } from "../../lib/redis/account-keys.ts";
import { sleep, until } from "../support/processes.ts";
import { scaleDeployment } from "./deployment.ts";

/*
 * SIGTERM (what an orchestrator sends before replacing a process): the API answers the requests it is
 * working on, a worker stores the URLs it is counting, then each exits 0.
 */

let deployment: Awaited<ReturnType<typeof scaleDeployment>>;

beforeAll(async () => {
  // Slow networks, so there is always work in flight when the signal arrives.
  deployment = await scaleDeployment({ SANDBOX_LATENCY_MS: "800", BULK_CONCURRENCY: "4" });
});
afterAll(() => deployment?.close());

describe("SIGTERM", () => {
  it("the API answers its in-flight requests, then exits 0", async () => {
    const api = await deployment.api("api");
    const { apiKey } = await deployment.accounts.create({ email: "sigterm-api@example.com", plan: "free" });
    const inFlight = fetch(`${api.url}/v1.0/?url=${encodeURIComponent("https://example.com/sigterm")}&apikey=${apiKey}`);
    await sleep(200);
    api.child.process.kill("SIGTERM");
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect((await answer.json()).Facebook).toBeTypeOf("object");
    expect(await api.child.exited).toEqual({ code: 0, signal: null });
    expect(api.child.output.join("")).toMatch(/"event":"stopped"/);
  });

  it("a worker stores the URLs it is counting, then exits 0", async () => {
    const [api, worker] = await Promise.all([deployment.api("api-2"), deployment.worker("worker")]);
    const { apiKey } = await deployment.accounts.create({ email: "sigterm-worker@example.com", plan: "business" });
    const urls = Array.from({ length: 40 }, (_, i) => `https://example.com/sigterm-${i}`);
    const submitted = await fetch(`${api.url}/v1.0/bulk?apikey=${apiKey}`, { method: "POST", body: urls.join("\n") });
    const { bulk_id: bulkId } = (await submitted.json()) as { bulk_id: string };

    const connection = new Redis(deployment.redisUrl, { maxRetriesPerRequest: null });
    const queue = new Queue(BULK_QUEUE, { connection, prefix: `${deployment.redisPrefix}:bull` });
    try {
      await until("the worker to be counting URLs", () => queue.getActiveCount(), (n) => n > 0, 30_000, [worker.child]);
      worker.child.process.kill("SIGTERM");
      expect(await worker.child.exited).toEqual({ code: 0, signal: null });
      // Nothing was left half done: no URL is still held, and every URL it took is stored.
      expect(await queue.getActiveCount()).toBe(0);
      const job = await deployment.prisma.bulkJob.findUniqueOrThrow({ where: { id: bulkId } });
      expect(job.urlsCompleted).toBeGreaterThan(0);
      // The URLs it had not asked about went back to the queue, in their chunks.
      const queued = await queue.getJobs(["waiting", "prioritized", "delayed"]);
      const urlsQueued = queued.reduce((sum, chunk) => sum + (chunk.data as { urls: unknown[] }).urls.length, 0);
      expect(job.urlsCompleted + urlsQueued).toBe(urls.length);
    } finally {
      await queue.close();
      connection.disconnect();
    }
  });
});
