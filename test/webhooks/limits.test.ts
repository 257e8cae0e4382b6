import { afterAll, describe, expect, it } from "vitest";
import { closeRedis, connectRedis } from "../../lib/redis/redis.ts";
import { WebhookError } from "../../lib/webhooks/webhook-errors.ts";
import { webhookLimits } from "../../lib/webhooks/webhook-limits.ts";
import { dropRedisPrefix, REDIS_TEST_URL, redisUnavailable, testRedisPrefix } from "../support/redis.ts";

/** The webhook test and retry limits, against a real Redis: two processes share one allowance. */
const noRedis = await redisUnavailable();
const prefix = testRedisPrefix();

describe.skipIf(noRedis !== undefined)("webhook test and retry limits with Redis", () => {
  const connections = [connectRedis(REDIS_TEST_URL), connectRedis(REDIS_TEST_URL)];
  afterAll(async () => {
    await dropRedisPrefix(prefix);
    for (const redis of connections) await closeRedis(redis);
  });

  it("are one allowance per account across processes, taken atomically", async () => {
    const [one, two] = connections.map((redis) => webhookLimits({ redis, prefix }));
    const taken = await Promise.allSettled(Array.from({ length: 14 }, (_, i) => (i % 2 === 0 ? one! : two!).take("test", "acct-a")));
    expect(taken.filter((t) => t.status === "fulfilled")).toHaveLength(10);
    const refusals = taken.flatMap((t) => (t.status === "rejected" ? [t.reason] : []));
    expect(refusals).toHaveLength(4);
    for (const refusal of refusals) {
      expect(refusal).toBeInstanceOf(WebhookError);
      expect(refusal).toMatchObject({ code: "rate_limited" });
      expect((refusal as WebhookError).retryAfterMs).toBeGreaterThan(0);
    }
    // Retries count apart from tests, and another account has its own.
    await expect(two!.take("retry", "acct-a")).resolves.toBeUndefined();
    await expect(one!.take("test", "acct-b")).resolves.toBeUndefined();
  });
});
