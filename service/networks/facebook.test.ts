import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { deriveCounts } from "../sandbox/derive-counts.ts";
import { FACEBOOK_GARBAGE_BODIES } from "../sandbox/facebook.ts";
import { useSandbox } from "../../test/support/sandbox.ts";
import { startSandbox } from "../sandbox/sandbox.ts";
import { createFacebookAdapter } from "./facebook.ts";
import type { FacebookCounts } from "../../lib/counts/values.ts";
import type { NetworkOutcome } from "./types.ts";

const TOKEN = "123456789|s3cr3t-Token/with+odd=chars";
const sandbox = useSandbox();

const control = sandbox.control;
const setMode = (mode: string) => control("/__sandbox/knobs", "PUT", { facebook: { mode } });
const adapter = (options: { accessToken?: string; timeoutMs?: number; graphUrl?: string } = {}) =>
  createFacebookAdapter({ graphUrl: sandbox.facebookGraphUrl, accessToken: TOKEN, timeoutMs: 2000, ...options });
const fetchCount = (url: string, options?: Parameters<typeof adapter>[0]) =>
  adapter(options).fetchCount(url, new AbortController().signal);

function expectFailure(outcome: NetworkOutcome<FacebookCounts>, failure: string) {
  expect(outcome).toMatchObject({ ok: false, failure });
  if (outcome.ok) return;
  expect(outcome.detail).not.toContain(TOKEN);
  expect(outcome.detail).not.toContain(encodeURIComponent(TOKEN));
  expect(outcome.detail).not.toContain("s3cr3t");
}

/** First of some probe URLs for which the sandbox's derived data satisfies `test`. */
const findUrl = (test: (d: ReturnType<typeof deriveCounts>) => boolean) =>
  Array.from({ length: 500 }, (_, i) => `https://example.com/probe/${i}`).find((u) => test(deriveCounts(u)))!;

describe("Facebook adapter against the sandbox", () => {
  it("is named Facebook", () => {
    expect(adapter().name).toBe("Facebook");
  });

  it("returns the same counts on every call, with total_count the sum of the parts", async () => {
    const url = "https://example.com/article?x=1&y=two#frag";
    const first = await fetchCount(url);
    const second = await fetchCount(url);
    expect(first).toEqual(second);
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    const e = deriveCounts(url).facebook;
    expect(first.sandbox).toBe(true);
    expect(first.value).toMatchObject(e);
    expect(first.value.total_count).toBe(e.reaction_count + e.comment_count + e.share_count + e.comment_plugin_count);
  });

  it("passes on og_object when present and null when Facebook omits it", async () => {
    const withOg = findUrl((d) => d.ogObject !== null);
    const outcome = await fetchCount(withOg);
    expect(outcome.ok && outcome.value.og_object).toEqual(deriveCounts(withOg).ogObject);
    const withoutOg = findUrl((d) => d.ogObject === null && d.facebook.share_count > 0);
    const other = await fetchCount(withoutOg);
    expect(other.ok && other.value.og_object).toBeNull();
  });

  it("reports zero counts as ok zeros", async () => {
    const url = findUrl((d) => d.facebook.share_count === 0 && d.facebook.reaction_count === 0);
    const outcome = await fetchCount(url);
    expect(outcome).toMatchObject({ ok: true, value: { total_count: 0, share_count: 0 } });
  });

  it("sees an override made upstream", async () => {
    const url = "https://example.com/changing";
    await control("/__sandbox/counts", "POST", {
      url,
      facebook: { reaction_count: 1, comment_count: 2, share_count: 3, comment_plugin_count: 4 },
    });
    expect(await fetchCount(url)).toMatchObject({
      ok: true,
      value: { total_count: 10, reaction_count: 1, comment_count: 2, share_count: 3, comment_plugin_count: 4 },
    });
  });

  it.each(["throttle", "throttle-613", "bare-403", "429"])("classifies mode %s as throttled", async (mode) => {
    await setMode(mode);
    // Two URLs so that both bare-403 bodies (empty and HTML) are seen.
    expectFailure(await fetchCount(findUrl((d) => d.variant % 2 === 0)), "throttled");
    expectFailure(await fetchCount(findUrl((d) => d.variant % 2 === 1)), "throttled");
  });

  it("names the Graph code and message in the detail", async () => {
    await setMode("throttle-613");
    const outcome = await fetchCount("https://example.com/");
    expect(!outcome.ok && outcome.detail).toContain("613");
    expect(!outcome.ok && outcome.detail).toContain("exceeded the rate limit");
    expect(outcome.sandbox).toBe(true);
  });

  it("classifies an expired token (Graph code 190) as rejected credentials, with the code", async () => {
    await setMode("expired-token");
    const outcome = await fetchCount("https://example.com/");
    expectFailure(outcome, "rejected");
    expect(outcome).toMatchObject({ code: 190, sandbox: true });
    expect(!outcome.ok && outcome.detail).toMatch(/^Graph error 190 \(HTTP 400\): Error validating access token/);
  });

  it("gives the Graph code of a throttling answer", async () => {
    await setMode("throttle");
    expect(await fetchCount("https://example.com/")).toMatchObject({ ok: false, failure: "throttled", code: 4 });
    await setMode("429");
    expect(await fetchCount("https://example.com/")).not.toHaveProperty("code");
  });

  it("classifies an HTTP 500 Graph error as failed", async () => {
    await setMode("fail");
    const outcome = await fetchCount("https://example.com/");
    expectFailure(outcome, "failed");
    expect(!outcome.ok && outcome.detail).toMatch(/Graph error 1 .*An unknown error has occurred\./);
  });

  it("classifies every garbage answer as failed", async () => {
    await setMode("garbage");
    const seen = new Set<number>();
    for (let i = 0; seen.size < FACEBOOK_GARBAGE_BODIES.length && i < 200; i++) {
      const url = `https://example.com/garbage/${i}`;
      const variant = deriveCounts(url).variant % FACEBOOK_GARBAGE_BODIES.length;
      if (seen.has(variant)) continue;
      seen.add(variant);
      expectFailure(await fetchCount(url), "failed");
    }
    expect(seen.size).toBe(FACEBOOK_GARBAGE_BODIES.length);
  });

  it("times out on a hanging upstream", async () => {
    await setMode("hang");
    const started = performance.now();
    const outcome = await fetchCount("https://example.com/", { timeoutMs: 200 });
    expectFailure(outcome, "timeout");
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it("times out when latency exceeds the timeout", async () => {
    await control("/__sandbox/knobs", "PUT", { facebook: { latencyMs: 500 } });
    expectFailure(await fetchCount("https://example.com/", { timeoutMs: 100 }), "timeout");
  });

  it("stops when the caller aborts", async () => {
    await setMode("hang");
    const caller = new AbortController();
    const pending = adapter().fetchCount("https://example.com/", caller.signal);
    setTimeout(() => caller.abort(), 50);
    expect(await pending).toMatchObject({ ok: false, failure: "timeout", detail: "aborted by caller" });
  });

  it("fails without leaking anything when the token is missing", async () => {
    const outcome = await fetchCount("https://example.com/", { accessToken: "" });
    expect(outcome).toMatchObject({ ok: false, failure: "failed" });
    expect(!outcome.ok && outcome.detail).toContain("104");
  });

  it("fails on a transport error", async () => {
    const closed = await startSandbox();
    const graphUrl = closed.facebookGraphUrl;
    await closed.close();
    const outcome = await fetchCount("https://example.com/", { graphUrl });
    expectFailure(outcome, "failed");
    expect(outcome.sandbox).toBe(false);
  });

  it("makes one upstream call per fetch, sending the token and both fields", async () => {
    await fetchCount("https://example.com/one");
    await fetchCount("https://example.com/one");
    await fetchCount("https://example.com/two");
    const stats = await sandbox.stats();
    expect(stats.facebook.calls).toBe(3);
    expect(stats.facebookByUrl).toEqual({ "https://example.com/one": 2, "https://example.com/two": 1 });
  });
});

/** Shapes the sandbox never produces, served by a stub that answers whatever the test sets. */
describe("Facebook adapter on unusual Graph answers", () => {
  let stub: Server;
  let graphUrl: string;
  let answer: { status: number; body: string; headers?: Record<string, string> } = { status: 200, body: "{}" };

  beforeAll(async () => {
    stub = createServer((_req, res) => {
      res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
      res.end(answer.body);
    });
    await new Promise<void>((resolve) => stub.listen(0, "127.0.0.1", resolve));
    graphUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}/v24.0`;
  });
  afterAll(async () => {
    stub.closeAllConnections();
    await new Promise((resolve) => stub.close(resolve));
  });

  const run = (status: number, body: unknown) => {
    answer = { status, body: typeof body === "string" ? body : JSON.stringify(body) };
    return fetchCount("https://example.com/", { graphUrl });
  };

  it("treats missing engagement parts as 0, keeps only known og_object fields, and flags live data", async () => {
    const outcome = await run(200, {
      engagement: { share_count: 5, comment_count: 2 },
      og_object: { id: "42", title: "T", type: 7, secret: "x", updated_time: "2024-01-01T00:00:00+0000" },
      id: "https://example.com/",
    });
    expect(outcome).toEqual({
      ok: true,
      sandbox: false,
      value: {
        total_count: 7,
        comment_count: 2,
        reaction_count: 0,
        share_count: 5,
        comment_plugin_count: 0,
        og_object: { id: "42", title: "T", updated_time: "2024-01-01T00:00:00+0000" },
      },
    });
  });

  it("gives og_object null when it has no id", async () => {
    const outcome = await run(200, { engagement: { share_count: 1 }, og_object: { title: "no id" } });
    expect(outcome.ok && outcome.value.og_object).toBeNull();
  });

  it("fails when engagement is missing, null or fractional", async () => {
    expectFailure(await run(200, { id: "https://example.com/" }), "failed");
    expectFailure(await run(200, { engagement: null }), "failed");
    expectFailure(await run(200, { engagement: { share_count: 1.5 } }), "failed");
  });

  it.each([17, 32])("classifies Graph code %i as throttled", async (code) => {
    expectFailure(await run(400, { error: { message: `(#${code}) limit`, code, is_transient: true } }), "throttled");
  });

  it("classifies a non-throttle 403 Graph error as failed", async () => {
    expectFailure(await run(403, { error: { message: "(#200) Permissions error", code: 200 } }), "failed");
  });

  it("redacts the token when Graph echoes it", async () => {
    const outcome = await run(400, { error: { message: `Invalid token ${TOKEN} / ${encodeURIComponent(TOKEN)}`, code: 190 } });
    expectFailure(outcome, "rejected");
    expect(!outcome.ok && outcome.detail).toContain("[redacted]");
  });
});
