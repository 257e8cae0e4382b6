import type { IncomingHttpHeaders } from "node:http";
import { describe, it, expect } from "vitest";
import { deriveMoreCounts } from "../sandbox/derive-counts.ts";
import { REDDIT_GARBAGE_BODIES } from "../sandbox/reddit.ts";
import { useStub, useUpstreamSandbox } from "../../test/support/upstream-cases.ts";
import { createRedditAdapter, DEFAULT_REDDIT_USER_AGENT, type RedditAdapterOptions } from "./reddit.ts";
import { moreTwinUrls } from "../sandbox/sandbox.ts";

const reddit = useUpstreamSandbox<RedditAdapterOptions>({
  network: "reddit",
  twinUrl: "redditUrl",
  create: createRedditAdapter,
  garbageBodies: REDDIT_GARBAGE_BODIES,
});
const { fetchCount } = reddit;

/** What the twin's submissions of `url` add up to. */
function expected(url: string) {
  const submissions = deriveMoreCounts(url).reddit;
  return {
    score: submissions.reduce((sum, s) => sum + s.score, 0),
    comments: submissions.reduce((sum, s) => sum + s.num_comments, 0),
    posts: submissions.length,
  };
}

describe("Reddit adapter against the sandbox", () => {
  reddit.commonCases({
    success: { name: "sums the URL's submissions, the same on every call, flagged as sandbox data", url: "https://example.com/post?a=1&b=2", value: expected },
    none: { name: "reports no submission as a real zero", value: { score: 0, comments: 0, posts: 0 } },
  });

  it("sums several submissions, a negative score included", async () => {
    const urls = Array.from({ length: 300 }, (_, i) => `https://example.com/many/${i}`);
    const several = urls.find((u) => deriveMoreCounts(u).reddit.length === 3)!;
    const negative = urls.find((u) => deriveMoreCounts(u).reddit.some((s) => s.score < 0))!;
    for (const url of [several, negative]) expect(await fetchCount(url)).toMatchObject({ ok: true, value: expected(url) });
  });
});

describe("Reddit adapter's request", () => {
  let seen: { url: string; headers: IncomingHttpHeaders } | undefined;
  let body = '{"kind":"Listing","data":{"children":[]}}';
  const stub = useStub((req, res) => {
    seen = { url: req.url ?? "", headers: req.headers };
    res.writeHead(200, { "content-type": "application/json" }).end(body);
  });

  it("asks for a full listing of the URL with a descriptive user agent", async () => {
    const { baseUrl } = stub;
    const url = "https://example.com/a b?x=1&y=2";
    expect(await fetchCount(url, { baseUrl })).toMatchObject({ ok: true, sandbox: false });
    expect(seen!.url).toBe(`/api/info.json?url=${encodeURIComponent(url)}&limit=100`);
    expect(seen!.headers["user-agent"]).toBe(DEFAULT_REDDIT_USER_AGENT);
    await fetchCount(url, { baseUrl, userAgent: "server:my-counts:1.0 (by /u/someone)" });
    expect(seen!.headers["user-agent"]).toBe("server:my-counts:1.0 (by /u/someone)");
  });

  it("counts only submissions (t3) among the children", async () => {
    const child = (kind: string, data: unknown) => ({ kind, data });
    body = JSON.stringify({
      kind: "Listing",
      data: { children: [child("t3", { score: 5, num_comments: 2 }), child("t1", { body: "a comment" }), child("t3", { score: -1, num_comments: 0 })] },
    });
    expect(await fetchCount("https://example.com/", { baseUrl: stub.baseUrl })).toEqual({ ok: true, value: { score: 4, comments: 2, posts: 2 }, sandbox: false });
  });
});

describe("Reddit adapter with application-only OAuth", () => {
  const oauth = () => ({ clientId: "id", clientSecret: "secret", apiUrl: moreTwinUrls(reddit.sandbox.origin).redditOAuthUrl });

  it("counts through the OAuth endpoint with a token from the twin, the same numbers as without", async () => {
    const adapter = createRedditAdapter({ baseUrl: reddit.twinUrl(), timeoutMs: 2000, oauth: oauth() });
    const url = "https://example.com/oauth";
    const answers = await Promise.all([1, 2, 3].map(() => adapter.fetchCount(url, new AbortController().signal)));
    for (const answer of answers) expect(answer).toEqual({ ok: true, value: expected(url), sandbox: true });
  });

  describe("against a stub", () => {
    const log: string[] = [];
    let tokens = 0;
    let tokenStatus = 200;
    let accepted = "";
    const stub = useStub((req, res) => {
      log.push(`${req.method} ${req.url} ${req.headers.authorization ?? ""}`);
      if (req.url === "/api/v1/access_token") {
        if (tokenStatus !== 200) return void res.writeHead(tokenStatus).end();
        accepted = `token-${++tokens}`;
        return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ access_token: accepted, token_type: "bearer", expires_in: 3600 }));
      }
      if (req.headers.authorization !== `bearer ${accepted}`) return void res.writeHead(401).end();
      res.writeHead(200, { "content-type": "application/json" }).end('{"kind":"Listing","data":{"children":[]}}');
    });
    const clock = { now: 0 };
    const adapter = () =>
      createRedditAdapter({
        baseUrl: stub.baseUrl,
        timeoutMs: 2000,
        now: () => clock.now,
        oauth: { clientId: "id", clientSecret: "secret", apiUrl: stub.baseUrl },
      });

    it("shares one token among concurrent calls, renews it a minute before it expires, and once on a 401", async () => {
      log.length = 0;
      const a = adapter();
      const call = () => a.fetchCount("https://example.com/", new AbortController().signal);
      expect((await Promise.all([call(), call(), call()])).every((o) => o.ok)).toBe(true);
      expect(log.filter((l) => l.startsWith("POST"))).toEqual([`POST /api/v1/access_token Basic ${Buffer.from("id:secret").toString("base64")}`]);
      expect(log.filter((l) => l.startsWith("GET")).every((l) => l.endsWith("bearer token-1"))).toBe(true);

      clock.now = 3_600_000 - 59_000;
      expect((await call()).ok).toBe(true);
      expect(log.at(-1)).toMatch(/^GET \/api\/info\?url=.* bearer token-2$/);

      accepted = "revoked elsewhere";
      expect((await call()).ok).toBe(true);
      expect(log.slice(-3).map((l) => l.split(" ")[0] + " " + (l.split(" ").at(-1) ?? ""))).toEqual(["GET token-2", "POST " + Buffer.from("id:secret").toString("base64"), "GET token-3"]);
    });

    it("reports refused client credentials as rejected", async () => {
      tokenStatus = 401;
      try {
        expect(await adapter().fetchCount("https://example.com/", new AbortController().signal)).toMatchObject({ ok: false, failure: "rejected" });
      } finally {
        tokenStatus = 200;
      }
    });
  });
});
