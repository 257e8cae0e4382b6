import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { parseRetryAfter, withUpstream } from "./upstream.ts";
import { SANDBOX_HEADER } from "./types.ts";

describe("parseRetryAfter", () => {
  const now = Date.parse("2030-01-01T00:00:00Z");

  it.each([
    ["30", 30_000],
    [" 0 ", 0],
    ["Tue, 01 Jan 2030 00:01:00 GMT", 60_000],
    ["Mon, 31 Dec 2029 23:00:00 GMT", 0],
  ])("reads %j as %d ms", (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
  });

  it.each([null, "", "soon", "-5", "1.5", "2030-01-01"])("reads %j as nothing", (value) => {
    expect(parseRetryAfter(value, now)).toBeUndefined();
  });
});

describe("withUpstream", () => {
  let stub: Server;
  let base: string;
  let answer: { status: number; headers?: Record<string, string>; body?: string; hang?: boolean } = { status: 200 };

  beforeAll(async () => {
    stub = createServer((req, res) => {
      if (req.url === "/moved") return void res.writeHead(301, { location: "/" }).end();
      if (answer.hang) return;
      res.writeHead(answer.status, answer.headers).end(answer.body ?? "");
    });
    await new Promise<void>((resolve) => stub.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    stub.closeAllConnections();
    await new Promise((resolve) => stub.close(resolve));
  });

  const run = (options: { timeoutMs?: number; signal?: AbortSignal } = {}) =>
    withUpstream<string>(options.timeoutMs ?? 2000, options.signal, async (call) => {
      const got = await call.fetch(base);
      return call.status(got, Date.parse("2030-01-01T00:00:00Z")) ?? call.ok(got.text);
    });

  it("passes a 2xx through, flagged as sandbox data when the header says so", async () => {
    answer = { status: 200, body: "hi", headers: { [SANDBOX_HEADER]: "1" } };
    expect(await run()).toEqual({ ok: true, value: "hi", sandbox: true });
    answer = { status: 204 };
    expect(await run()).toEqual({ ok: true, value: "", sandbox: false });
  });

  it("follows a redirect, as fetch did", async () => {
    answer = { status: 200, body: "here" };
    const outcome = await withUpstream<string>(2000, undefined, async (call) => call.ok((await call.fetch(`${base}/moved`)).text));
    expect(outcome).toEqual({ ok: true, value: "here", sandbox: false });
  });

  it("maps 429 to throttled and other statuses to failed, carrying Retry-After when given", async () => {
    answer = { status: 429, headers: { "retry-after": "12" } };
    expect(await run()).toEqual({ ok: false, failure: "throttled", detail: "HTTP 429 (Retry-After 12 s)", sandbox: false, retryAfterMs: 12_000 });
    answer = { status: 429 };
    expect(await run()).toEqual({ ok: false, failure: "throttled", detail: "HTTP 429", sandbox: false });
    answer = { status: 503, headers: { "retry-after": "Tue, 01 Jan 2030 00:00:05 GMT" } };
    expect(await run()).toMatchObject({ failure: "failed", retryAfterMs: 5000 });
    answer = { status: 404 };
    expect(await run()).toMatchObject({ failure: "failed", detail: "HTTP 404" });
  });

  it("tells its own timeout from the caller giving up", async () => {
    answer = { status: 200, hang: true };
    expect(await run({ timeoutMs: 100 })).toMatchObject({ failure: "timeout", detail: "no answer within 100 ms" });
    expect(await run({ signal: AbortSignal.timeout(100) })).toMatchObject({ failure: "timeout", detail: "aborted by caller" });
  });

  it("turns a transport error or a throw into failed", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const transport = await withUpstream(2000, undefined, async (call) => call.ok(await call.fetch(`http://127.0.0.1:${port}/`)));
    expect(transport).toMatchObject({ ok: false, failure: "failed", detail: expect.stringMatching(/^transport error: /) });
    const thrown = await withUpstream(2000, undefined, async () => {
      throw new Error("boom");
    });
    expect(thrown).toMatchObject({ ok: false, failure: "failed", detail: "transport error: boom" });
  });
});
