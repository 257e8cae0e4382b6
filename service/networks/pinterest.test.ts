import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { deriveCounts } from "../sandbox/derive-counts.ts";
import { PINTEREST_GARBAGE_BODIES } from "../sandbox/pinterest.ts";
import { useSandbox } from "../../test/support/sandbox.ts";
import { startSandbox } from "../sandbox/sandbox.ts";
import { createPinterestAdapter } from "./pinterest.ts";

const sandbox = useSandbox();

const control = sandbox.control;
const setMode = (mode: string) => control("/__sandbox/knobs", "PUT", { pinterest: { mode } });
const override = (url: string, pinterest: number | string) => control("/__sandbox/counts", "POST", { url, pinterest });
const fetchCount = (url: string, options: { countUrl?: string; timeoutMs?: number } = {}) =>
  createPinterestAdapter({ countUrl: sandbox.pinterestCountUrl, timeoutMs: 2000, ...options }).fetchCount(
    url,
    new AbortController().signal,
  );

describe("Pinterest adapter against the sandbox", () => {
  it("returns the same count on every call, flagged as sandbox data", async () => {
    const url = "https://example.com/pin?a=1&b=2";
    const first = await fetchCount(url);
    expect(first).toEqual({ ok: true, value: deriveCounts(url).pinterest, sandbox: true });
    expect(await fetchCount(url)).toEqual(first);
  });

  it("parses a renamed JSONP wrapper", async () => {
    const url = "https://example.com/cb";
    const countUrl = `${sandbox.pinterestCountUrl}?callback=jQuery123_456`;
    const raw = await (await fetch(`${countUrl}&url=${encodeURIComponent(url)}`)).text();
    expect(raw.startsWith("jQuery123_456(")).toBe(true);
    expect(await fetchCount(url, { countUrl })).toEqual({ ok: true, value: deriveCounts(url).pinterest, sandbox: true });
  });

  it("sees an override made upstream, and accepts a numeric string", async () => {
    await override("https://example.com/n", 1234);
    expect(await fetchCount("https://example.com/n")).toMatchObject({ ok: true, value: 1234 });
    await override("https://example.com/s", "12");
    expect(await fetchCount("https://example.com/s")).toMatchObject({ ok: true, value: 12 });
  });

  it("reports zero as an ok zero", async () => {
    await override("https://example.com/zero", 0);
    expect(await fetchCount("https://example.com/zero")).toMatchObject({ ok: true, value: 0 });
  });

  it("classifies the dash as unreported", async () => {
    await setMode("dash");
    const outcome = await fetchCount("https://example.com/");
    expect(outcome).toMatchObject({ ok: false, failure: "unreported", sandbox: true });
  });

  it.each(["-", "-3", "abc", "1.5", ""])("classifies the count %j as unreported", async (count) => {
    await override("https://example.com/odd", count);
    expect(await fetchCount("https://example.com/odd")).toMatchObject({ ok: false, failure: "unreported" });
  });

  it("classifies every garbage answer as failed", async () => {
    await setMode("garbage");
    const seen = new Set<number>();
    for (let i = 0; seen.size < PINTEREST_GARBAGE_BODIES.length && i < 200; i++) {
      const url = `https://example.com/garbage/${i}`;
      const variant = deriveCounts(url).variant % PINTEREST_GARBAGE_BODIES.length;
      if (seen.has(variant)) continue;
      seen.add(variant);
      expect(await fetchCount(url)).toMatchObject({ ok: false, failure: "failed" });
    }
    expect(seen.size).toBe(PINTEREST_GARBAGE_BODIES.length);
  });

  it("classifies 500 as failed and 429 as throttled", async () => {
    await setMode("fail");
    expect(await fetchCount("https://example.com/")).toMatchObject({ ok: false, failure: "failed", detail: "HTTP 500" });
    await setMode("429");
    expect(await fetchCount("https://example.com/")).toMatchObject({ ok: false, failure: "throttled" });
  });

  it("times out on a hanging upstream", async () => {
    await setMode("hang");
    const started = performance.now();
    expect(await fetchCount("https://example.com/", { timeoutMs: 200 })).toMatchObject({ ok: false, failure: "timeout" });
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it("fails on a transport error", async () => {
    const closed = await startSandbox();
    const countUrl = closed.pinterestCountUrl;
    await closed.close();
    expect(await fetchCount("https://example.com/", { countUrl })).toMatchObject({ ok: false, failure: "failed", sandbox: false });
  });

  it("makes one upstream call per fetch", async () => {
    await Promise.all([fetchCount("https://example.com/1"), fetchCount("https://example.com/1"), fetchCount("https://example.com/2")]);
    const stats = await sandbox.stats();
    expect(stats.pinterest.calls).toBe(3);
    expect(stats.pinterestByUrl).toEqual({ "https://example.com/1": 2, "https://example.com/2": 1 });
  });
});

/** Wrapper variants the sandbox never produces. */
describe("Pinterest adapter on unusual answers", () => {
  let stub: Server;
  let countUrl: string;
  let body = "";

  beforeAll(async () => {
    stub = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/javascript" });
      res.end(body);
    });
    await new Promise<void>((resolve) => stub.listen(0, "127.0.0.1", resolve));
    countUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}/v1/urls/count.json`;
  });
  afterAll(async () => {
    stub.closeAllConnections();
    await new Promise((resolve) => stub.close(resolve));
  });

  const run = (answer: string) => {
    body = answer;
    return fetchCount("https://example.com/", { countUrl });
  };

  it.each([
    ['receiveCount({"url":"u","count":7});\n', 7],
    ['  cb_1.x ( {"count":"8"} ) ;  ', 8],
    ['{"url":"u","count":9}', 9],
  ])("accepts %j", async (answer, value) => {
    expect(await run(answer)).toEqual({ ok: true, value, sandbox: false });
  });

  it("classifies a parsed wrapper without a count as unreported", async () => {
    expect(await run('receiveCount({"url":"u"})')).toMatchObject({ ok: false, failure: "unreported" });
    expect(await run("receiveCount({})")).toMatchObject({ ok: false, failure: "unreported" });
    expect(await run('receiveCount({"count":null})')).toMatchObject({ ok: false, failure: "unreported" });
  });

  it.each(["", "receiveCount()", "receiveCount([1])", "receiveCount(5)", "receiveCount({})x"])(
    "classifies %j as failed",
    async (answer) => {
      expect(await run(answer)).toMatchObject({ ok: false, failure: "failed" });
    },
  );
});
