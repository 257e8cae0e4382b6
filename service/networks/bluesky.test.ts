import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, it, expect, beforeAll, afterAll, beforeEach } from "vitest";
import { BLUESKY_GARBAGE_BODIES, BLUESKY_SESSION_TTL_SECONDS, type BlueskyMode } from "../sandbox/bluesky.ts";
import type { MoreSandboxStats } from "../sandbox/control.ts";
import { deriveMoreCounts } from "../sandbox/derive-counts.ts";
import { startSandbox, type Sandbox } from "../sandbox/sandbox.ts";
import { createBlueskyAdapter, REJECTED_RETRY_MS, type BlueskyAdapterOptions } from "./bluesky.ts";

const PASSWORD = "app-pass-w0rd-s3cret";

/** The twin's and the adapter's clocks, each moved by hand from the process's. */
let twinOffset = 0;
let adapterOffset = 0;

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ now: () => Date.now() + twinOffset });
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  twinOffset = adapterOffset = 0;
  await fetch(`${sandbox.origin}/__sandbox/reset`, { method: "POST" });
});

const setKnobs = (bluesky: { mode?: BlueskyMode; latencyMs?: number }) =>
  fetch(`${sandbox.origin}/__sandbox/more/knobs`, { method: "PUT", body: JSON.stringify({ bluesky }) });
const stats = async () => ((await (await fetch(`${sandbox.origin}/__sandbox/more/stats`)).json()) as MoreSandboxStats).bluesky;
const adapter = (options: Partial<BlueskyAdapterOptions> = {}) =>
  createBlueskyAdapter({
    baseUrl: sandbox.blueskyUrl,
    timeoutMs: 2000,
    identifier: "counts.example.com",
    password: PASSWORD,
    now: () => Date.now() + adapterOffset,
    ...options,
  });
const ask = (bluesky: ReturnType<typeof adapter>, url: string, signal = new AbortController().signal) => bluesky.fetchCount(url, signal);

/** What the first `limit` of the twin's posts of `url` add up to. */
function expected(url: string, limit = Infinity) {
  const posts = deriveMoreCounts(url).bluesky.slice(0, limit);
  const sum = (key: "likeCount" | "repostCount" | "replyCount" | "quoteCount") => posts.reduce((total, post) => total + post[key], 0);
  return { likes: sum("likeCount"), reposts: sum("repostCount"), replies: sum("replyCount"), quotes: sum("quoteCount"), posts: posts.length };
}

const probeUrls = Array.from({ length: 400 }, (_, i) => `https://example.com/sky/${i}`);
const onePage = probeUrls.find((u) => deriveMoreCounts(u).bluesky.length <= 100)!;
const threePages = probeUrls.find((u) => deriveMoreCounts(u).bluesky.length > 200)!;

describe("Bluesky adapter against the sandbox", () => {
  it("is named bluesky", () => {
    expect(adapter().name).toBe("bluesky");
  });

  it("sums the posts' counts, the same on every call, flagged as sandbox data, on one session", async () => {
    const bluesky = adapter();
    const first = await ask(bluesky, onePage);
    expect(first).toEqual({ ok: true, value: expected(onePage), sandbox: true });
    expect(await ask(bluesky, onePage)).toEqual(first);
    expect(await stats()).toEqual({ calls: 2, byUrl: { [onePage]: 2 }, sessions: 1 });
  });

  it("follows the cursor, up to maxPages pages", async () => {
    expect(await ask(adapter(), threePages)).toEqual({ ok: true, value: expected(threePages), sandbox: true });
    expect((await stats()).calls).toBe(3);
    expect(await ask(adapter({ maxPages: 2 }), threePages)).toEqual({ ok: true, value: expected(threePages, 200), sandbox: true });
    expect((await stats()).calls).toBe(5);
  });

  it("reports no posts as a real zero", async () => {
    await setKnobs({ mode: "none" });
    expect(await ask(adapter(), onePage)).toEqual({ ok: true, value: { likes: 0, reposts: 0, replies: 0, quotes: 0, posts: 0 }, sandbox: true });
  });

  it("classifies every garbage answer as failed", async () => {
    await setKnobs({ mode: "garbage" });
    const bluesky = adapter();
    const seen = new Set<number>();
    for (let i = 0; seen.size < BLUESKY_GARBAGE_BODIES.length && i < 200; i++) {
      const url = `https://example.com/garbage/${i}`;
      const variant = deriveMoreCounts(url).variant % BLUESKY_GARBAGE_BODIES.length;
      if (seen.has(variant)) continue;
      seen.add(variant);
      expect(await ask(bluesky, url)).toMatchObject({ ok: false, failure: "failed", sandbox: true });
    }
    expect(seen.size).toBe(BLUESKY_GARBAGE_BODIES.length);
  });

  it("classifies 500 as failed", async () => {
    await setKnobs({ mode: "fail" });
    expect(await ask(adapter(), onePage)).toEqual({ ok: false, failure: "failed", detail: "HTTP 500", sandbox: true });
  });

  it("classifies 429 as throttled, carrying Retry-After when given", async () => {
    const bluesky = adapter();
    await setKnobs({ mode: "throttle" });
    expect(await ask(bluesky, onePage)).toMatchObject({ ok: false, failure: "throttled", retryAfterMs: 30_000 });
    await setKnobs({ mode: "429" });
    const bare = await ask(bluesky, onePage);
    expect(bare).toMatchObject({ ok: false, failure: "throttled" });
    expect(bare).not.toHaveProperty("retryAfterMs");
  });

  it("times out on a hanging search, and on a hanging createSession", async () => {
    const bluesky = adapter({ timeoutMs: 200 });
    expect(await ask(bluesky, onePage)).toMatchObject({ ok: true });
    await setKnobs({ mode: "hang" });
    const started = performance.now();
    expect(await ask(bluesky, onePage)).toMatchObject({ ok: false, failure: "timeout" });
    expect(await ask(adapter({ timeoutMs: 200 }), onePage)).toMatchObject({ ok: false, failure: "timeout" });
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("fails on a transport error", async () => {
    const closed = await startSandbox();
    await closed.close();
    expect(await ask(adapter({ baseUrl: closed.blueskyUrl }), onePage)).toMatchObject({ ok: false, failure: "failed", sandbox: false });
  });

  it("reports rejected credentials as rejected, without the password, and sends them again only 5 minutes later", async () => {
    await setKnobs({ mode: "reject-credentials" });
    const bluesky = adapter();
    const outcome = await ask(bluesky, onePage);
    expect(outcome).toEqual({
      ok: false,
      failure: "rejected",
      detail: "createSession: HTTP 401 AuthenticationRequired: Invalid identifier or password",
      sandbox: true,
    });
    expect(JSON.stringify(outcome)).not.toContain(PASSWORD);
    // Every call meanwhile gets the same answer without a createSession (Bluesky locks accounts that keep trying).
    await setKnobs({ mode: "ok" });
    for (let i = 0; i < 5; i++) expect(await ask(bluesky, onePage)).toEqual(outcome);
    expect(await stats()).toMatchObject({ calls: 0, sessions: 1 });
    adapterOffset = REJECTED_RETRY_MS;
    expect(await ask(bluesky, onePage)).toMatchObject({ ok: true });
    expect(await stats()).toMatchObject({ calls: 1, sessions: 2 });
  });

  it("shares one createSession among concurrent calls", async () => {
    const bluesky = adapter();
    const outcomes = await Promise.all(probeUrls.slice(0, 5).map((url) => ask(bluesky, url)));
    for (const outcome of outcomes) expect(outcome).toMatchObject({ ok: true });
    expect(await stats()).toMatchObject({ sessions: 1 });
  });

  it("lets a caller give up on a shared createSession without failing the others", async () => {
    await setKnobs({ latencyMs: 300 });
    const bluesky = adapter();
    const [impatient, patient] = await Promise.all([ask(bluesky, onePage, AbortSignal.timeout(100)), ask(bluesky, onePage)]);
    expect(impatient).toMatchObject({ ok: false, failure: "timeout", detail: "aborted by caller" });
    expect(patient).toEqual({ ok: true, value: expected(onePage), sandbox: true });
    expect(await stats()).toMatchObject({ sessions: 1 });
  });

  it("renews the session when less than a minute of it is left", async () => {
    const bluesky = adapter();
    await ask(bluesky, onePage);
    adapterOffset = (BLUESKY_SESSION_TTL_SECONDS - 120) * 1000;
    await ask(bluesky, onePage);
    expect(await stats()).toMatchObject({ sessions: 1 });
    adapterOffset = (BLUESKY_SESSION_TTL_SECONDS - 30) * 1000;
    twinOffset = adapterOffset;
    expect(await ask(bluesky, onePage)).toMatchObject({ ok: true });
    expect(await stats()).toMatchObject({ calls: 3, sessions: 2 });
  });

  it("renews the session once when the search answers ExpiredToken, and retries", async () => {
    const bluesky = adapter();
    await ask(bluesky, onePage);
    // Only the twin's clock moves: the adapter thinks its token good, the twin has it expired.
    twinOffset = (BLUESKY_SESSION_TTL_SECONDS + 1) * 1000;
    expect(await ask(bluesky, onePage)).toEqual({ ok: true, value: expected(onePage), sandbox: true });
    expect(await stats()).toMatchObject({ calls: 3, sessions: 2 });
  });
});

/** A Bluesky the sandbox does not imitate: tokens without exp, older PDS error codes, a search that refuses every token. */
describe("Bluesky adapter on unusual answers", () => {
  let stub: Server;
  let baseUrl: string;
  let handle: (req: IncomingMessage, res: ServerResponse) => void;
  let requests: Array<{ method: string; url: string; authorization?: string }> = [];

  beforeAll(async () => {
    stub = createServer((req, res) => {
      requests.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization });
      handle(req, res);
    });
    await new Promise<void>((resolve) => stub.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    stub.closeAllConnections();
    await new Promise((resolve) => stub.close(resolve));
  });
  beforeEach(() => {
    requests = [];
  });

  const json = (res: ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  /** A server whose sessions are numbered tokens without exp, and whose search answers `search(token)`. */
  const serve = (search: (token: string) => [number, unknown]) => {
    let sessions = 0;
    handle = (req, res) => {
      if (req.url!.endsWith("createSession")) return json(res, 200, { accessJwt: `token-${++sessions}`, refreshJwt: "r" });
      json(res, ...search(req.headers.authorization!.slice("Bearer ".length)));
    };
  };
  const stubAdapter = () => adapter({ baseUrl });

  it("asks for the URL by q and url, 100 at a time, with the session's token, following the cursor", async () => {
    serve(() => [200, { posts: [{ likeCount: 1 }], cursor: "next page" }]);
    const url = "https://example.com/a b?x=1&y=2";
    expect(await ask(adapter({ baseUrl, maxPages: 2 }), url)).toMatchObject({
      ok: true,
      value: { likes: 2, reposts: 0, replies: 0, quotes: 0, posts: 2 },
    });
    const q = encodeURIComponent(url);
    expect(requests).toEqual([
      { method: "POST", url: "/com.atproto.server.createSession", authorization: undefined },
      { method: "GET", url: `/app.bsky.feed.searchPosts?q=${q}&url=${q}&limit=100`, authorization: "Bearer token-1" },
      { method: "GET", url: `/app.bsky.feed.searchPosts?q=${q}&url=${q}&limit=100&cursor=next%20page`, authorization: "Bearer token-1" },
    ]);
  });

  it("keeps a token without exp until it is refused, and treats an older PDS's 400 ExpiredToken as a refusal", async () => {
    serve((token) => (token === "token-1" && requests.length > 3 ? [400, { error: "ExpiredToken", message: "Token has expired" }] : [200, { posts: [] }]));
    const bluesky = stubAdapter();
    for (let i = 0; i < 3; i++) expect(await ask(bluesky, onePage)).toMatchObject({ ok: true });
    expect(requests.filter((r) => r.method === "POST")).toHaveLength(2);
    expect(requests.at(-1)!.authorization).toBe("Bearer token-2");
  });

  it("fails when the search refuses a new session too, having renewed once", async () => {
    serve(() => [401, { error: "ExpiredToken", message: "Token has expired" }]);
    expect(await ask(stubAdapter(), onePage)).toMatchObject({
      ok: false,
      failure: "failed",
      detail: "searchPosts refused a new session: HTTP 401 ExpiredToken: Token has expired",
    });
    expect(requests.map((r) => r.method)).toEqual(["POST", "GET", "POST", "GET"]);
  });

  it("fails on a createSession answer without a token, and on a 400 that is not about the token", async () => {
    handle = (_req, res) => json(res, 200, { did: "did:plc:x" });
    expect(await ask(stubAdapter(), onePage)).toMatchObject({ ok: false, failure: "failed", detail: "createSession: answer has no accessJwt" });
    serve(() => [400, { error: "InvalidRequest", message: "bad cursor" }]);
    expect(await ask(stubAdapter(), onePage)).toMatchObject({ ok: false, failure: "failed", detail: "HTTP 400" });
  });
});
