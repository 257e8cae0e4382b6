import { describe, expect, it } from "vitest";
import { coalesced, perTick } from "./per-tick.ts";

describe("perTick", () => {
  it("runs the calls of one turn as one batch, each caller getting its own result", async () => {
    const batches: number[][] = [];
    const double = perTick((items: number[]) => {
      batches.push(items);
      return items.map((n) => n * 2);
    });
    expect(await Promise.all([double(1), double(2), double(3)])).toEqual([2, 4, 6]);
    expect(await double(4)).toBe(8);
    expect(batches).toEqual([[1, 2, 3], [4]]);
  });
});

describe("coalesced", () => {
  it("sends calls made while a batch runs together in the next batch, and a batch's failure to its callers only", async () => {
    const batches: number[][] = [];
    let release: () => void = () => {};
    const write = coalesced(async (items: number[]) => {
      batches.push(items);
      if (items.includes(1)) await new Promise<void>((resolve) => (release = resolve));
      if (items.includes(13)) throw new Error("unlucky");
      return items.map((n) => n + 100);
    });
    const first = write(1);
    await new Promise((resolve) => setImmediate(resolve));
    // The first batch is running: these wait for it, then go as one.
    const waiting = [2, 3, 4].map(write);
    release();
    expect(await first).toBe(101);
    expect(await Promise.all(waiting)).toEqual([102, 103, 104]);
    await expect(write(13)).rejects.toThrow("unlucky");
    expect(await write(5)).toBe(105);
    expect(batches).toEqual([[1], [2, 3, 4], [13], [5]]);
  });

  it("with a gap, starts batches under load at least that far apart, and a call on an idle path at once", async () => {
    const starts: { at: number; items: number[] }[] = [];
    let release: () => void = () => {};
    const write = coalesced(async (items: number[]) => {
      starts.push({ at: performance.now(), items });
      if (items.includes(2)) await new Promise<void>((resolve) => (release = resolve));
      return items;
    }, 50);
    const called = performance.now();
    const first = write(2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(starts.map((s) => s.items)).toEqual([[2]]);
    expect(starts[0]!.at - called).toBeLessThan(40);
    // Calls arriving while a batch runs wait out the gap since it began, and go together.
    const later = [3, 4].map(write);
    release();
    expect(await Promise.all([first, ...later])).toEqual([2, 3, 4]);
    expect(starts.map((s) => s.items)).toEqual([[2], [3, 4]]);
    expect(starts[1]!.at - starts[0]!.at).toBeGreaterThanOrEqual(45);
  });
});
