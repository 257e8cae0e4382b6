import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import type { MoreSandboxStats } from "../sandbox/control.ts";
import { deriveMoreCounts } from "../sandbox/derive-counts.ts";
import { moreTwinUrls, startSandbox } from "../sandbox/sandbox.ts";
import { VK_GARBAGE_BODIES, type VkMode } from "../sandbox/vk.ts";
import { useSandbox } from "../../test/support/sandbox.ts";
import { createVkAdapter, type VkAdapterOptions } from "./vk.ts";

const sandbox = useSandbox();

const setMode = (mode: VkMode) => sandbox.control("/__sandbox/more/knobs", "PUT", { vk: { mode } });
const stats = async () => (await (await fetch(`${sandbox.origin}/__sandbox/more/stats`)).json()) as MoreSandboxStats;
const fetchCount = (url: string, options: Partial<VkAdapterOptions> = {}) =>
  createVkAdapter({ baseUrl: moreTwinUrls(sandbox.origin).vkUrl, timeoutMs: 2000, ...options }).fetchCount(url, new AbortController().signal);

describe("VK adapter against the sandbox", () => {
  it("is named vk", () => {
    expect(createVkAdapter({ baseUrl: "http://127.0.0.1:1", timeoutMs: 1 }).name).toBe("vk");
  });

  it("reads the share count, the same on every call, flagged as sandbox data", async () => {
    const url = "https://example.com/vk?a=1&b=2";
    const first = await fetchCount(url);
    expect(first).toEqual({ ok: true, value: { count: deriveMoreCounts(url).vk }, sandbox: true });
    expect(await fetchCount(url)).toEqual(first);
  });

  it("reports VK.Share.count(1, 0) as a real zero", async () => {
    await setMode("none");
    expect(await fetchCount("https://example.com/")).toEqual({ ok: true, value: { count: 0 }, sandbox: true });
  });

  it("classifies every garbage answer as failed", async () => {
    await setMode("garbage");
    const seen = new Set<number>();
    for (let i = 0; seen.size < VK_GARBAGE_BODIES.length && i < 200; i++) {
      const url = `https://example.com/garbage/${i}`;
      const variant = deriveMoreCounts(url).variant % VK_GARBAGE_BODIES.length;
      if (seen.has(variant)) continue;
      seen.add(variant);
      expect(await fetchCount(url)).toMatchObject({ ok: false, failure: "failed", sandbox: true });
    }
    expect(seen.size).toBe(VK_GARBAGE_BODIES.length);
  });

  it("classifies 500 as failed", async () => {
    await setMode("fail");
    expect(await fetchCount("https://example.com/")).toEqual({ ok: false, failure: "failed", detail: "HTTP 500", sandbox: true });
  });

  it("classifies 429 as throttled, carrying Retry-After when given", async () => {
    await setMode("throttle");
    expect(await fetchCount("https://example.com/")).toMatchObject({ ok: false, failure: "throttled", retryAfterMs: 30_000 });
    await setMode("429");
    const bare = await fetchCount("https://example.com/");
    expect(bare).toMatchObject({ ok: false, failure: "throttled" });
    expect(bare).not.toHaveProperty("retryAfterMs");
  });

  it("times out on a hanging upstream", async () => {
    await setMode("hang");
    const started = performance.now();
    expect(await fetchCount("https://example.com/", { timeoutMs: 200 })).toMatchObject({ ok: false, failure: "timeout" });
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it("fails on a transport error", async () => {
    const closed = await startSandbox();
    await closed.close();
    expect(await fetchCount("https://example.com/", { baseUrl: closed.vkUrl })).toMatchObject({ ok: false, failure: "failed", sandbox: false });
  });

  it("makes one upstream call per fetch", async () => {
    await Promise.all([fetchCount("https://example.com/1"), fetchCount("https://example.com/1"), fetchCount("https://example.com/2")]);
    expect((await stats()).vk).toEqual({ calls: 3, byUrl: { "https://example.com/1": 2, "https://example.com/2": 1 } });
  });
});

/** Answers the sandbox never gives. */
describe("VK adapter on unusual answers", () => {
  let stub: Server;
  let baseUrl: string;
  let body = "";

  beforeAll(async () => {
    stub = createServer((_req, res) => res.writeHead(200, { "content-type": "text/javascript" }).end(body));
    await new Promise<void>((resolve) => stub.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    stub.closeAllConnections();
    await new Promise((resolve) => stub.close(resolve));
  });

  const run = (answer: string) => {
    body = answer;
    return fetchCount("https://example.com/", { baseUrl });
  };

  it.each([
    ["VK.Share.count(1, 42);", 42],
    ["VK.Share.count(1,7)", 7],
    ["  VK.Share.count( 1 , 0 ) ;\n", 0],
  ])("accepts %j", async (answer, count) => {
    expect(await run(answer)).toEqual({ ok: true, value: { count }, sandbox: false });
  });

  it.each(["", "VK.Share.count(0, 42);", "VK.Share.count(1, 4.2);", "VK.Share.count(1, 42); alert(1)", "VK.Share.count(1, 1234567890123456);"])(
    "classifies %j as failed",
    async (answer) => {
      expect(await run(answer)).toMatchObject({ ok: false, failure: "failed" });
    },
  );
});
