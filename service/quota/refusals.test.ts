import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { QuotaClock } from "../../lib/quota/clock.ts";
import type { RefusedDay } from "../../lib/store/usage.ts";
import { apiErrors, ApiError } from "../http/errors.ts";
import { countingRefusals, RefusalCounter, refusalReason } from "./refusals.ts";
import { log } from "../../lib/log/log.ts";

/** A usage store that records each batch it is given, and fails while `failing` is set. */
function fakeUsage() {
  const batches: RefusedDay[][] = [];
  const usage = {
    failing: false,
    batches,
    async addRefusals(days: readonly RefusedDay[]) {
      if (usage.failing) throw new Error("database down");
      batches.push(days.map((d) => ({ ...d, refused: { ...d.refused } })));
    },
  };
  return usage;
}

const FLUSH_MS = 1_000;
const quotaError = () => apiErrors.quotaExceeded("1.0", 10, Date.UTC(2026, 0, 2), "UTC");

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("refusalReason", () => {
  it("names the reason of each refusal a count query can meet once its key named the account", () => {
    expect(refusalReason(quotaError())).toBe("quota");
    expect(refusalReason(apiErrors.domainNotWhitelisted("evil.example"))).toBe("whitelist");
    expect(refusalReason(apiErrors.invalidUrl("the url parameter is required"))).toBe("invalid");
    expect(refusalReason(apiErrors.invalidCustomTtl(3600))).toBe("invalid");
    expect(refusalReason(apiErrors.customTtlNotAllowed("free"))).toBe("invalid");
    expect(refusalReason(new ApiError("invalid_parameter", 400, "networks: bad"))).toBe("invalid");
  });

  it("counts no failure of ours, and nothing that is not the API's error", () => {
    for (const error of [apiErrors.serviceUnavailable(), apiErrors.internal(), apiErrors.invalidApiKey(), new Error("boom"), "quota_exceeded"]) {
      expect(refusalReason(error)).toBeNull();
    }
  });
});

describe("RefusalCounter", () => {
  it("keeps one entry per account and day however often it is refused, and writes them in one batch", async () => {
    const usage = fakeUsage();
    const counter = new RefusalCounter(usage, FLUSH_MS);
    const [invalid, quota] = [apiErrors.invalidUrl("bad"), quotaError()];
    for (let i = 0; i < 50_000; i++) counter.noteIfRefused("hammered", "2026-01-01", i % 5 === 0 ? invalid : quota);
    counter.noteIfRefused("other", "2026-01-01", apiErrors.domainNotWhitelisted("x.example"));
    counter.noteIfRefused("other", "2026-01-02", apiErrors.domainNotWhitelisted("x.example"));
    counter.noteIfRefused("other", "2026-01-02", apiErrors.internal());
    expect(counter.size).toBe(3);
    await counter.flush();
    expect(counter.size).toBe(0);
    expect(usage.batches).toEqual([
      [
        { accountId: "hammered", day: "2026-01-01", refused: { quota: 40_000, whitelist: 0, invalid: 10_000 } },
        { accountId: "other", day: "2026-01-01", refused: { quota: 0, whitelist: 1, invalid: 0 } },
        { accountId: "other", day: "2026-01-02", refused: { quota: 0, whitelist: 1, invalid: 0 } },
      ],
    ]);
  });

  it("writes by itself one flush interval after the first refusal, and not at all without one", async () => {
    const usage = fakeUsage();
    const counter = new RefusalCounter(usage, FLUSH_MS);
    await vi.advanceTimersByTimeAsync(5 * FLUSH_MS);
    expect(usage.batches).toEqual([]);
    counter.noteIfRefused("a", "2026-01-01", quotaError());
    await vi.advanceTimersByTimeAsync(FLUSH_MS / 2);
    counter.noteIfRefused("a", "2026-01-01", quotaError());
    await vi.advanceTimersByTimeAsync(FLUSH_MS / 2 - 1);
    expect(usage.batches).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(usage.batches).toEqual([[{ accountId: "a", day: "2026-01-01", refused: { quota: 2, whitelist: 0, invalid: 0 } }]]);
  });

  it("keeps the counts of a failed write, with those that came since, for the next one", async () => {
    const usage = fakeUsage();
    const counter = new RefusalCounter(usage, FLUSH_MS);
    const logged = vi.spyOn(log, "error").mockImplementation(() => {});
    usage.failing = true;
    counter.noteIfRefused("a", "2026-01-01", quotaError());
    await vi.advanceTimersByTimeAsync(FLUSH_MS);
    expect(logged).toHaveBeenCalledOnce();
    expect(counter.size).toBe(1);
    counter.noteIfRefused("a", "2026-01-01", quotaError());
    usage.failing = false;
    await vi.advanceTimersByTimeAsync(FLUSH_MS);
    expect(usage.batches).toEqual([[{ accountId: "a", day: "2026-01-01", refused: { quota: 2, whitelist: 0, invalid: 0 } }]]);
    logged.mockRestore();
  });

  it("writes what is left on stop, and schedules nothing after", async () => {
    const usage = fakeUsage();
    const counter = new RefusalCounter(usage, FLUSH_MS);
    counter.noteIfRefused("a", "2026-01-01", apiErrors.invalidUrl("bad"));
    await counter.stop();
    expect(usage.batches).toEqual([[{ accountId: "a", day: "2026-01-01", refused: { quota: 0, whitelist: 0, invalid: 1 } }]]);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("countingRefusals", () => {
  it("passes answers through, and counts a refusal against the caller's quota day before rethrowing it", async () => {
    const usage = fakeUsage();
    const counter = new RefusalCounter(usage, FLUSH_MS);
    // 23:30 in UTC is already the next day in Tokyo: the day comes from the caller's clock and zone.
    const clock = new QuotaClock("Asia/Tokyo", () => Date.UTC(2026, 2, 9, 23, 30));
    const answer = countingRefusals({ refusals: counter, clock }, async (account: { id: string }, refuse: boolean) => {
      if (refuse) throw apiErrors.domainNotWhitelisted("x.example");
      return `ok ${account.id}`;
    });
    expect(await answer({ id: "a" }, false)).toBe("ok a");
    await expect(answer({ id: "a" }, true)).rejects.toMatchObject({ code: "domain_not_whitelisted" });
    await counter.flush();
    expect(usage.batches).toEqual([[{ accountId: "a", day: "2026-03-10", refused: { quota: 0, whitelist: 1, invalid: 0 } }]]);
  });
});
