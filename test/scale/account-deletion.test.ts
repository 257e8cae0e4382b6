import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bullPrefix, BULK_QUEUE, chunkJobId, quotaCounterKey } from "../../lib/redis/account-keys.ts";
import { runAdmin } from "../support/admin-cli.ts";
import { todayUtc } from "../support/service.ts";
import { scaleDeployment } from "./deployment.ts";

/*
 * Deleting an account on the scale-out stack: two API processes (each caching the account's key) refuse the key
 * at once, and Redis keeps nothing of the account (its queued bulk URLs' BullMQ jobs, its quota counter).
 */

let deployment: Awaited<ReturnType<typeof scaleDeployment>>;
let apis: { url: string }[];
let redis: Redis;

beforeAll(async () => {
  deployment = await scaleDeployment();
  // No worker: a submitted job's URLs stay in the BullMQ queue.
  apis = await Promise.all([deployment.api("api-a"), deployment.api("api-b")]);
  redis = new Redis(deployment.redisUrl);
});
afterAll(async () => {
  redis?.disconnect();
  await deployment?.close();
});

const quota = (api: { url: string }, apiKey: string) => fetch(`${api.url}/v1.0/quota?apikey=${apiKey}`);

describe("account:delete on PostgreSQL + Redis", () => {
  it("the key is refused at once by both API processes, and Redis holds nothing of the account", async () => {
    const email = "deleted-at-scale@example.com";
    const { account, apiKey } = await deployment.accounts.create({ email, plan: "business" });
    const other = await deployment.accounts.create({ email: "stays-at-scale@example.com", plan: "business" });
    const submitted = await fetch(`${apis[0]!.url}/v2/bulk`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ urls: ["https://example.com/scale-delete-1", "https://example.com/scale-delete-2"] }),
    });
    expect(submitted.status).toBe(200);
    expect((await fetch(`${apis[1]!.url}/v1.0/?url=${encodeURIComponent("https://example.com/scale-delete-3")}&apikey=${apiKey}`)).status).toBe(200);
    for (const api of apis) expect((await quota(api, apiKey)).status).toBe(200);
    const urls = await deployment.prisma.bulkUrl.findMany({ where: { job: { accountId: account.id } }, select: { id: true, jobId: true } });
    expect(urls).toHaveLength(2);
    const jobKeys = [...new Set(urls.map((u) => `${bullPrefix(deployment.redisPrefix)}:${BULK_QUEUE}:${chunkJobId(u.jobId, u.id)}`))];
    const counterKey = quotaCounterKey(deployment.redisPrefix, todayUtc(), account.id);
    expect(await redis.exists(...jobKeys, counterKey)).toBe(jobKeys.length + 1);

    const { processEnv } = deployment;
    const result = await runAdmin(deployment.databaseUrl, ["account:delete", "--email", email], {
      SHARECOUNT_SECRET: processEnv.SHARECOUNT_SECRET!,
      REDIS_URL: processEnv.REDIS_URL!,
      REDIS_PREFIX: processEnv.REDIS_PREFIX!,
    });
    expect(result.json).toEqual({ deleted: email });

    for (const api of apis) {
      const refused = await quota(api, apiKey);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ Type: "invalid_api_key" });
      expect((await quota(api, other.apiKey)).status).toBe(200);
    }
    expect(await redis.exists(...jobKeys, counterKey)).toBe(0);
    expect(await redis.zcard(`${bullPrefix(deployment.redisPrefix)}:${BULK_QUEUE}:prioritized`)).toBe(0);
    expect(await deployment.prisma.mailMessage.count({ where: { recipient: email, kind: "account_deleted", accountId: null } })).toBe(1);
  });
});
