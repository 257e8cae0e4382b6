import { describe, expect, it, vi } from "vitest";
import { log } from "../../lib/log/log.ts";
import { LastUsed } from "../../service/keys/last-used.ts";

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** last_used_at is written in batches: one write per interval for every key used in it, never one per request. */
describe("LastUsed", () => {
  it("stamps every key used in an interval in one write, at the flush's time", async () => {
    const writes: { ids: string[]; at: number }[] = [];
    const lastUsed = new LastUsed(async (ids, at) => void writes.push({ ids: [...ids].sort(), at }), () => 1_000, 40);
    for (let i = 0; i < 10_000; i++) lastUsed.keyUsed(`key_${i % 3}`);
    expect(writes).toEqual([]);
    await wait(120);
    expect(writes).toEqual([{ ids: ["key_0", "key_1", "key_2"], at: 1_000 }]);
    // Nothing used since: no write.
    await wait(120);
    expect(writes).toHaveLength(1);
    lastUsed.keyUsed("key_9");
    await lastUsed.flush();
    expect(writes).toEqual([{ ids: ["key_0", "key_1", "key_2"], at: 1_000 }, { ids: ["key_9"], at: 1_000 }]);
  });

  it("a failed write is tried again with the next batch", async () => {
    const writes: string[][] = [];
    let fail = true;
    const lastUsed = new LastUsed(async (ids) => {
      if (fail) {
        fail = false;
        throw new Error("database away");
      }
      writes.push([...ids].sort());
    }, () => 0, 30);
    const spy = vi.spyOn(log, "error").mockImplementation(() => {});
    let errors = 0;
    try {
      lastUsed.keyUsed("key_a");
      await lastUsed.flush();
      lastUsed.keyUsed("key_b");
      await lastUsed.flush();
      errors = spy.mock.calls.length;
    } finally {
      spy.mockRestore();
    }
    expect(errors).toBe(1);
    expect(writes).toEqual([["key_a", "key_b"]]);
  });
});
