import http from "node:http";
import { FIXTURE_AUDIT } from "../support/audit.ts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { addDays } from "../../lib/quota/day.ts";
import { expectedFacebook, expectedPinterest } from "../support/expected-counts.ts";
import { sleep, until } from "../support/processes.ts";
import { rawRequest } from "../support/raw-http.ts";
import { expectError } from "../support/api-error.ts";
import { startTestService, TEST_STACK, todayUtc, type TestService } from "../support/service.ts";

/*
 * Bulk jobs against the real service: every body shape clients send, what is accepted, the errors, progress
 * and results while incomplete (with and without force) and once complete, quota (counted once per completed
 * URL, pausing when it runs out, resuming when the plan is raised) and failing networks.
 *
 * The worker counts two URLs at a time (BULK_CONCURRENCY=2), so a slow sandbox makes the incomplete state
 * observable; nothing here asserts how long anything takes: waits are bounded polls.
 */

let svc: TestService;
let key: string;
let seq = 0;

const rand = () => Math.random().toString(36).slice(2, 10);
/** A URL no other test has asked for, so the count cache never answers for another test. */
const freshUrl = (label = "page") => `https://example.com/bulk-${label}-${++seq}-${rand()}`;
const freshUrls = (n: number, label?: string) => Array.from({ length: n }, () => freshUrl(label));

const V10_KEYS = ["Facebook", "GooglePlusOne", "LinkedIn", "Pinterest", "StumbleUpon"];
const V11_KEYS = ["Facebook", "Pinterest"];
const FACEBOOK_KEYS = ["comment_count", "comment_plugin_count", "reaction_count", "share_count", "total_count"];

const expectedV10 = (url: string) => ({
  StumbleUpon: null,
  Pinterest: expectedPinterest(url),
  LinkedIn: null,
  Facebook: expectedFacebook(url),
  GooglePlusOne: null,
});
const expectedV11 = (url: string) => ({ Pinterest: expectedPinterest(url), Facebook: expectedFacebook(url) });

const withKey = (path: string, apiKey: string | null) =>
  apiKey === null ? path : `${path}${path.includes("?") ? "&" : "?"}apikey=${encodeURIComponent(apiKey)}`;

function submit(path: string, init: RequestInit, apiKey: string | null = key) {
  return svc.get(withKey(path, apiKey), { method: "POST", ...init });
}

const plain = (text: string): RequestInit => ({ headers: { "content-type": "text/plain" }, body: text });

interface BulkAnswer {
  data: Record<string, Record<string, unknown>> | unknown[];
  _meta: { urls_completed: number; urls_queued: number; completed: boolean; bulk_id: string; paused_until?: string };
}

async function submitOk(urls: string[], apiKey = key, path = "/v1.0/bulk") {
  const res = await submit(path, plain(`${urls.join("\n")}\n`), apiKey);
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body as { count: number; bulk_id: string };
}

async function retrieve(bulkId: string, options: { apiKey?: string; path?: string; force?: string } = {}) {
  const force = options.force === undefined ? "" : `&force=${options.force}`;
  const res = await svc.get(
    `${options.path ?? "/v1.0/bulk"}?bulk_id=${encodeURIComponent(bulkId)}&apikey=${options.apiKey ?? key}${force}`,
  );
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body as BulkAnswer;
}

function waitComplete(bulkId: string, options: { apiKey?: string; path?: string; timeoutMs?: number } = {}) {
  return until(`bulk job ${bulkId} to complete`, () => retrieve(bulkId, options), (b) => b._meta.completed, options.timeoutMs);
}

async function quota(apiKey: string) {
  return (await svc.get(`/v1.0/quota?apikey=${apiKey}`)).json();
}

/** A POST through node:http with exactly the headers given: no Content-Type unless listed. */
function rawPost(path: string, body: string, headers: Record<string, string> = {}) {
  const { port } = new URL(svc.baseUrl);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port, path, method: "POST", headers: { "content-length": String(Buffer.byteLength(body)), ...headers } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

beforeAll(async () => {
  svc = await startTestService({ BULK_CONCURRENCY: "2" });
  key = (await svc.account("business")).apiKey;
});
afterAll(() => svc?.close());
beforeEach(() => svc.resetSandbox());

describe("POST bulk: paths", () => {
  it.each([
    ["/v1.0/bulk", "/v1.0/bulk", V10_KEYS],
    ["/v1.0/bulk/", "/v1.0/bulk", V10_KEYS],
    ["/v1.1/bulk", "/v1.1/bulk", V11_KEYS],
    ["/v1.1/bulk/", "/v1.1/bulk", V11_KEYS],
    ["/bulk", "/bulk", V10_KEYS],
    ["/bulk/", "/bulk/", V10_KEYS],
  ])("POST %s queues a job that GET %s answers", async (postPath, getPath, keys) => {
    const urls = freshUrls(3, "path");
    const res = await submit(postPath, plain(`${urls.join("\n")}\n`));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const body = await res.json();
    expect(body).toEqual({ count: 3, bulk_id: expect.any(String) });
    const done = await waitComplete(body.bulk_id, { path: getPath });
    expect(Object.keys(done.data).sort()).toEqual([...urls].sort());
    for (const url of urls) {
      const counts = (done.data as Record<string, Record<string, unknown>>)[url]!;
      expect(Object.keys(counts).sort()).toEqual(keys);
      expect(counts.Pinterest).toBe(expectedPinterest(url));
    }
  });
});

describe("POST bulk: every body shape clients send", () => {
  type Shape = (urls: string[], apiKey: string) => { init: RequestInit; keyInQuery: boolean };
  const tricky = () => `${freshUrl("query")}?a=1&b=two+words`;
  const shapes: [string, Shape, () => string[]][] = [
    ["text/plain, trailing line break", (u) => ({ init: plain(`${u.join("\n")}\n`), keyInQuery: true }), () => freshUrls(3)],
    ["text/plain, no trailing line break", (u) => ({ init: plain(u.join("\n")), keyInQuery: true }), () => freshUrls(3)],
    ["text/plain, CRLF line ends", (u) => ({ init: plain(`${u.join("\r\n")}\r\n`), keyInQuery: true }), () => freshUrls(3)],
    [
      "text/plain with a charset, blank lines and surrounding spaces",
      (u) => ({ init: { headers: { "content-type": "text/plain; charset=utf-8" }, body: `\n  ${u.join("  \n\n\t")}\n\n` }, keyInQuery: true }),
      () => freshUrls(3),
    ],
    [
      "no Content-Type at all (fetch with bytes)",
      (u) => ({ init: { body: new TextEncoder().encode(`${u.join("\n")}\n`) }, keyInQuery: true }),
      () => [...freshUrls(2), tricky()],
    ],
    [
      "urlencoded with a urls field",
      (u) => ({ init: { body: new URLSearchParams({ urls: `${u.join("\n")}\n` }) }, keyInQuery: true }),
      () => [...freshUrls(2), tricky()],
    ],
    [
      "urlencoded with urls and apikey fields (no key in the query)",
      (u, k) => ({ init: { body: new URLSearchParams({ urls: u.join("\r\n"), apikey: k }) }, keyInQuery: false }),
      () => [...freshUrls(2), tricky()],
    ],
    [
      "urlencoded that is just URL lines (curl --data-binary @file)",
      (u) => ({
        init: { headers: { "content-type": "application/x-www-form-urlencoded" }, body: `${u.join("\n")}\n` },
        keyInQuery: true,
      }),
      () => [...freshUrls(2), tricky()],
    ],
    [
      "multipart with a urls string field",
      (u) => {
        const form = new FormData();
        form.append("urls", `${u.join("\n")}\n`);
        return { init: { body: form }, keyInQuery: true };
      },
      () => [...freshUrls(2), tricky()],
    ],
    [
      "multipart with a urls file (CRLF) and an apikey field (no key in the query)",
      (u, k) => {
        const form = new FormData();
        form.append("apikey", k);
        form.append("urls", new Blob([`${u.join("\r\n")}\r\n`], { type: "text/plain" }), "urls.txt");
        return { init: { body: form }, keyInQuery: false };
      },
      () => [...freshUrls(2), tricky()],
    ],
    [
      'JSON {"urls": [...]}',
      (u) => ({ init: { headers: { "content-type": "application/json" }, body: JSON.stringify({ urls: u }) }, keyInQuery: true }),
      () => [...freshUrls(2), tricky()],
    ],
    [
      'JSON {"urls": [...], "apikey": ...} (no key in the query)',
      (u, k) => ({
        init: { headers: { "content-type": "application/json; charset=utf-8" }, body: JSON.stringify({ urls: u, apikey: k }) },
        keyInQuery: false,
      }),
      () => [...freshUrls(2), tricky()],
    ],
    [
      "text/plain file saved with a byte-order mark",
      (u) => ({ init: plain(`\uFEFF${u.join("\r\n")}\r\n`), keyInQuery: true }),
      () => freshUrls(3),
    ],
  ];

  it.each(shapes)("%s", async (_name, shape, makeUrls) => {
    const urls = makeUrls();
    const { init, keyInQuery } = shape(urls, key);
    const res = await submit("/v1.0/bulk", init, keyInQuery ? key : null);
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toEqual({ count: urls.length, bulk_id: expect.any(String) });
    // The job holds exactly the URLs sent, as sent (not a line with a CR, not the form encoding).
    const done = await waitComplete(body.bulk_id);
    expect(Object.keys(done.data).sort()).toEqual([...urls].sort());
    for (const url of urls) expect((done.data as Record<string, unknown>)[url]).toEqual(expectedV10(url));
  });

  it("reads a curl --data-binary list as lines even when a URL's own query has a urls parameter", async () => {
    const urls = [freshUrl(), `${freshUrl("search")}?q=1&urls=2&apikey=3`, freshUrl()];
    const res = await submit("/v1.0/bulk", {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `${urls.join("\n")}\n`,
    });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.count).toBe(3);
    const done = await waitComplete(body.bulk_id);
    expect(Object.keys(done.data).sort()).toEqual([...urls].sort());
  });

  it("takes a body with no Content-Type header at all (raw node:http request)", async () => {
    const urls = freshUrls(2);
    const res = await rawPost(`/v1.1/bulk?apikey=${key}`, urls.join("\r\n"));
    expect(res.status).toBe(200);
    const body = JSON.parse(res.body);
    expect(body).toEqual({ count: 2, bulk_id: expect.any(String) });
    const done = await waitComplete(body.bulk_id, { path: "/v1.1/bulk" });
    expect(done.data).toEqual(Object.fromEntries(urls.map((u) => [u, expectedV11(u)])));
  });

  it("takes a form-encoded body with urls and apikey through node:http, as an HTML form posts it", async () => {
    const urls = freshUrls(2);
    const form = new URLSearchParams({ apikey: key, urls: urls.join("\n") }).toString();
    const res = await rawPost("/bulk", form, { "content-type": "application/x-www-form-urlencoded" });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).count).toBe(2);
  });
});

describe("POST bulk: what is accepted", () => {
  it("drops invalid lines silently and counts only valid URLs", async () => {
    const valid = freshUrls(2, "valid");
    const lines = [
      "not a url",
      valid[0]!,
      "ftp://example.com/file",
      "example.com/no-scheme",
      "https://",
      "https://localhost/x",
      "",
      "   ",
      `https://example.com/${"x".repeat(2100)}`,
      valid[1]!,
      "javascript:alert(1)",
    ];
    const res = await submit("/v1.0/bulk", plain(lines.join("\n")));
    const body = await res.json();
    expect(res.status).toBe(200);
    expect(body.count).toBe(2);
    const done = await waitComplete(body.bulk_id);
    expect(done._meta).toMatchObject({ urls_queued: 2, urls_completed: 2, completed: true });
    expect(Object.keys(done.data).sort()).toEqual([...valid].sort());
  });

  it("counts duplicates once, also after normalization (host case, fragment, exact repeat)", async () => {
    const path = `/dup-${rand()}`;
    const other = freshUrl("other");
    const lines = [
      `https://Example.COM${path}`,
      `https://example.com${path}`,
      `https://example.com${path}#section`,
      other,
      other,
      `https://EXAMPLE.com${path}#top`,
    ];
    const body = await (await submit("/v1.1/bulk", plain(lines.join("\n")))).json();
    expect(body.count).toBe(2);
    const done = await waitComplete(body.bulk_id, { path: "/v1.1/bulk" });
    expect(done._meta).toMatchObject({ urls_queued: 2, urls_completed: 2, completed: true });
    const keys = Object.keys(done.data);
    expect(keys).toHaveLength(2);
    expect(keys).toContain(other);
    // The other key is one of the submitted spellings of the duplicated URL, answered with its counts.
    const dupKey = keys.find((k) => k !== other)!;
    expect(lines).toContain(dupKey);
    expect((done.data as Record<string, unknown>)[dupKey]).toEqual(expectedV11(`https://example.com${path}`));
    // Asked upstream once, under the normalized URL.
    const stats = await svc.stats();
    expect(stats.facebookByUrl[`https://example.com${path}`]).toBe(1);
    expect(Object.keys(stats.facebookByUrl).filter((u) => u.includes(path))).toEqual([`https://example.com${path}`]);
  });

  it("keys results by the URL as submitted, answering for its normalized form", async () => {
    const submitted = `https://EXAMPLE.com/keyed-${rand()}?q=1#frag`;
    const body = await submitOk([submitted]);
    const done = await waitComplete(body.bulk_id);
    expect(Object.keys(done.data)).toEqual([submitted]);
    expect((done.data as Record<string, unknown>)[submitted]).toEqual(expectedV10(submitted));
  });

  it("answers an unguessable bulk_id in the real service's form (40 lowercase hex characters) that differs per job", async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const body = await submitOk([freshUrl("id")]);
      expect(body.bulk_id).toMatch(/^[0-9a-f]{40}$/);
      ids.add(body.bulk_id);
    }
    expect(ids.size).toBe(5);
    for (const id of ids) await waitComplete(id);
  });
});

describe("bulk ids issued before in another form", () => {
  it("keep working: a job stored under a 24-character id is retrieved", async () => {
    const { email, apiKey } = await svc.account("business");
    const { id: accountId } = await svc.prisma.account.findUniqueOrThrow({ where: { email } });
    const oldId = "JOFB1qFouL2hg9vyQoIJ0G87";
    const url = freshUrl("old-id");
    await svc.prisma.bulkJob.create({
      data: {
        id: oldId,
        accountId,
        urlsQueued: 1,
        urlsCompleted: 1,
        createdAt: BigInt(Date.now() - 60_000),
        completedAt: BigInt(Date.now() - 30_000),
        urls: { create: [{ url, countUrl: url, result: JSON.stringify({ Facebook: null, Pinterest: 3 }), completedAt: BigInt(Date.now() - 30_000) }] },
      },
    });
    const job = await retrieve(oldId, { apiKey });
    expect(job._meta).toMatchObject({ bulk_id: oldId, completed: true, urls_completed: 1 });
    expect((job.data as Record<string, { Pinterest: number }>)[url]!.Pinterest).toBe(3);
  });
});

describe("POST bulk: errors", () => {
  it("refuses the free plan with 403 bulk_not_allowed", async () => {
    const free = (await svc.account("free")).apiKey;
    const res = await submit("/v1.0/bulk", plain(`${freshUrl()}\n`), free);
    await expectError(res, 403, "bulk_not_allowed");
    await expectError(await submit("/v1.1/bulk", plain(`${freshUrl()}\n`), free), 403, "bulk_not_allowed");
    // Nothing was counted for the refused submissions.
    expect((await quota(free)).quota_used_today).toBe(0);
  });

  // Counts a 500-URL job to the end: 1–8 s here, 18–20 s on a machine loaded far past two CPU hogs (where
  // polling's default 20 s ran out once); the test's own timeout is the limit.
  it("holds plus to 500 valid unique URLs: 501 is bulk_limit_exceeded naming the limit", async () => {
    const plus = (await svc.account("plus")).apiKey;
    const urls = freshUrls(503, "limit");
    const over = await submit("/v1.0/bulk", plain(urls.join("\n")), plus);
    const error = await expectError(over, 400, "bulk_limit_exceeded");
    expect(error.Error).toMatch(/\bMore than 500 URLs\b/);
    const over1 = await expectError(await submit("/v1.1/bulk", plain(urls.slice(0, 501).join("\n")), plus), 400, "bulk_limit_exceeded");
    expect(over1.Error).toMatch(/\bbatch limit is 500\b/);
    // Duplicates and invalid lines do not count toward the limit: 500 unique valid URLs are accepted.
    const exactly = [...urls.slice(0, 500), urls[0]!.replace("https://example.com", "https://EXAMPLE.com"), urls[1]!, "nope"];
    const res = await submit("/v1.0/bulk", plain(exactly.join("\n")), plus);
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.count).toBe(500);
    const done = await waitComplete(body.bulk_id, { apiKey: plus, timeoutMs: 55_000 });
    expect(Object.keys(done.data)).toHaveLength(500);
    expect((await quota(plus)).quota_used_today).toBe(500);
  }, 60_000);

  it("answers 400 no_valid_urls for a body without a valid URL", async () => {
    await expectError(await submit("/v1.0/bulk", plain("not a url\nftp://x.com/a\n\n")), 400, "no_valid_urls");
    await expectError(await submit("/v1.1/bulk", plain("")), 400, "no_valid_urls");
    await expectError(await submit("/bulk", { body: new URLSearchParams({ urls: "\n\n" }) }), 400, "no_valid_urls");
    await expectError(
      await submit("/v1.0/bulk", { headers: { "content-type": "application/json" }, body: JSON.stringify({ urls: [] }) }),
      400,
      "no_valid_urls",
    );
  });

  it("checks a key in the query before reading the body", async () => {
    const bad = { headers: { "content-type": "application/json" }, body: "{not json" };
    await expectError(await submit("/v1.0/bulk", bad, "not-a-real-key"), 401, "invalid_api_key");
    await expectError(await submit("/v1.0/bulk", bad, key), 400, "invalid_body");
  });

  it("answers 401 missing_api_key and invalid_api_key", async () => {
    const body = plain(`${freshUrl()}\n`);
    await expectError(await submit("/v1.0/bulk", body, null), 401, "missing_api_key");
    await expectError(await submit("/v1.1/bulk", plain(`${freshUrl()}\n`), "not-a-real-key"), 401, "invalid_api_key");
    await expectError(await submit("/bulk", plain(`${freshUrl()}\n`), null), 401, "missing_api_key");
    const form = new FormData();
    form.append("urls", freshUrl());
    form.append("apikey", "not-a-real-key");
    await expectError(await submit("/v1.0/bulk", { body: form }, null), 401, "invalid_api_key");
    await expectError(await svc.get("/v1.0/bulk?bulk_id=abc"), 401, "missing_api_key");
    await expectError(await svc.get("/v1.1/bulk?bulk_id=abc&apikey=nope"), 401, "invalid_api_key");
  });
});

describe("POST bulk: big bodies are read no further than needed", () => {
  const MiB = 1024 * 1024;
  /** `times` MiB of URL lines (about 24,000 lines a MiB), streamed to `path`. */
  const stream = (path: string, headers: Record<string, string>, times: number, line = "https://example.com/a-long-enough-path-0123456789\n") => {
    const chunk = Buffer.from(line.repeat(Math.ceil(MiB / line.length))).subarray(0, MiB);
    return rawRequest(svc.baseUrl, "POST", path, headers, { chunk, times });
  };

  it("answers missing_api_key before reading a plain list that has no key (it cannot hold one), never asking for it", async () => {
    const answer = await stream("/v1.0/bulk", { "content-type": "text/plain", "content-length": String(20 * MiB) }, 20);
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body)).toMatchObject({ Type: "missing_api_key" });
    expect(answer.headers.connection).toBe("close");
    expect(answer.sent).toBeLessThan(20 * MiB);
  });

  it("stops reading a body with far more URLs than the plan allows at the first one past the limit", async () => {
    const plus = (await svc.account("plus")).apiKey;
    let n = 0;
    const lines = Buffer.from(Array.from({ length: 24_000 }, () => `https://example.com/over-${++n}`).join("\n") + "\n");
    const answer = await rawRequest(svc.baseUrl, "POST", withKey("/v1.0/bulk", plus), { "content-type": "text/plain" }, { chunk: lines, times: 20 });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ Type: "bulk_limit_exceeded" });
    expect(answer.sent).toBeLessThan(20 * lines.length);
    expect((await quota(plus)).quota_used_today).toBe(0);
  });

  it("finds the key after the URLs in a form body, then applies its whitelist and plan limit", async () => {
    const { email, apiKey } = await svc.account("plus");
    await svc.accounts.setWhitelist(email, ["allowed.example.com"], true, FIXTURE_AUDIT);
    const allowed = Array.from({ length: 3 }, (_, i) => `https://allowed.example.com/${i}-${rand()}`);
    const urls = [...freshUrls(600, "outside-whitelist"), ...allowed];
    const form = new URLSearchParams([["urls", urls.join("\n")], ["apikey", apiKey]]);
    const res = await submit("/v1.0/bulk", { body: form }, null);
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    // 600 URLs outside the whitelist, over plus's limit of 500, are dropped before the limit applies.
    expect(body.count).toBe(3);
    const done = await waitComplete(body.bulk_id, { apiKey });
    expect(Object.keys(done.data).sort()).toEqual([...allowed].sort());
  });

  it("refuses, not shortens, a job whose body held more URLs than any plan allows before its key arrived", async () => {
    const { email, apiKey } = await svc.account("dedicated");
    await svc.accounts.setWhitelist(email, ["allowed.example.com"], true, FIXTURE_AUDIT);
    // More than dedicated's 10,000 before the key, a few of them whitelisted at the very end: which of the
    // URLs let go unread the whitelist would have kept cannot be known, so the job is not made up of a guess.
    const urls = [...freshUrls(10_050, "before-the-key"), `https://allowed.example.com/late-${rand()}`];
    const res = await submit("/v1.0/bulk", { body: new URLSearchParams([["urls", urls.join("\n")], ["apikey", apiKey]]) }, null);
    await expectError(res, 400, "bulk_limit_exceeded");
    expect((await quota(apiKey)).quota_used_today).toBe(0);
  });

  it("refuses a body over BULK_MAX_BODY_BYTES that does not say its length, once past it", async () => {
    const max = svc.env.BULK_MAX_BODY_BYTES;
    const answer = await stream(withKey("/v1.0/bulk", key), { "content-type": "text/plain", "transfer-encoding": "chunked" }, Math.ceil(max / MiB) + 4);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ Type: "body_too_large" });
  });
});

describe("GET bulk", () => {
  it("shows progress while incomplete: data [] without force (or force=0), results so far with force=1", async () => {
    await svc.knobs({ facebook: { latencyMs: 300 }, pinterest: { latencyMs: 300 } });
    const n = 12;
    const urls = freshUrls(n, "progress");
    const { bulk_id: bulkId, count } = await submitOk(urls, key, "/v1.1/bulk");
    expect(count).toBe(n);

    const partway = (b: BulkAnswer) => !b._meta.completed && b._meta.urls_completed >= 1 && b._meta.urls_completed <= n - 1;

    const plainAnswer = await until("progress without force", () => retrieve(bulkId, { path: "/v1.1/bulk" }), partway);
    expect(plainAnswer.data).toEqual([]);
    expect(plainAnswer._meta).toEqual({
      urls_completed: expect.any(Number),
      urls_queued: n,
      completed: false,
      bulk_id: bulkId,
    });

    const zero = await until("progress with force=0", () => retrieve(bulkId, { path: "/v1.1/bulk", force: "0" }), partway);
    expect(zero.data).toEqual([]);
    expect(zero._meta.urls_queued).toBe(n);

    const forced = await until("progress with force=1", () => retrieve(bulkId, { path: "/v1.1/bulk", force: "1" }), partway);
    expect(Array.isArray(forced.data)).toBe(false);
    const partial = forced.data as Record<string, unknown>;
    expect(Object.keys(partial)).toHaveLength(forced._meta.urls_completed);
    for (const [url, counts] of Object.entries(partial)) {
      expect(urls).toContain(url);
      expect(counts).toEqual(expectedV11(url));
    }
    expect(forced._meta).toMatchObject({ urls_queued: n, completed: false, bulk_id: bulkId });

    // Progress only moves forward, and the job completes with every URL.
    const done = await waitComplete(bulkId, { path: "/v1.1/bulk" });
    expect(done._meta).toEqual({ urls_completed: n, urls_queued: n, completed: true, bulk_id: bulkId });
    expect(done.data).toEqual(Object.fromEntries(urls.map((u) => [u, expectedV11(u)])));
    expect(done._meta.urls_completed).toBeGreaterThanOrEqual(forced._meta.urls_completed);
  });

  it("answers complete jobs with v1.0 count objects on /v1.0/bulk and /bulk, v1.1 ones on /v1.1/bulk", async () => {
    const urls = freshUrls(4, "versions");
    const { bulk_id: bulkId } = await submitOk(urls, key, "/v1.1/bulk");
    const v11 = await waitComplete(bulkId, { path: "/v1.1/bulk" });
    const v10 = await retrieve(bulkId, { path: "/v1.0/bulk" });
    const legacy = await retrieve(bulkId, { path: "/bulk" });
    // force on a complete job changes nothing.
    const forced = await retrieve(bulkId, { path: "/v1.0/bulk", force: "1" });
    for (const answer of [v10, legacy, forced]) {
      expect(answer._meta).toEqual({ urls_completed: 4, urls_queued: 4, completed: true, bulk_id: bulkId });
      expect(answer.data).toEqual(Object.fromEntries(urls.map((u) => [u, expectedV10(u)])));
    }
    expect(v11.data).toEqual(Object.fromEntries(urls.map((u) => [u, expectedV11(u)])));
    for (const url of urls) {
      const v10Counts = (v10.data as Record<string, Record<string, unknown>>)[url]!;
      expect(Object.keys(v10Counts).sort()).toEqual(V10_KEYS);
      expect(Object.keys((v11.data as Record<string, Record<string, unknown>>)[url]!).sort()).toEqual(V11_KEYS);
      const fb = v10Counts.Facebook as Record<string, number>;
      for (const k of FACEBOOK_KEYS) expect(Number.isInteger(fb[k])).toBe(true);
      expect(fb.total_count).toBe(fb.comment_count! + fb.reaction_count! + fb.share_count! + fb.comment_plugin_count!);
    }
  });

  it("answers 400 missing_bulk_id and 404 bulk_not_found", async () => {
    await expectError(await svc.get(`/v1.0/bulk?apikey=${key}`), 400, "missing_bulk_id");
    await expectError(await svc.get(`/v1.1/bulk?apikey=${key}&bulk_id=`), 400, "missing_bulk_id");
    await expectError(await svc.get(`/v1.0/bulk?apikey=${key}&bulk_id=JOFB1qFouL2hg9vyQoIJ0G87`), 404, "bulk_not_found");
    await expectError(await svc.get(`/bulk?apikey=${key}&bulk_id=${"x".repeat(5000)}`), 404, "bulk_not_found");
  });

  it("hides another account's job: 404 bulk_not_found, with or without force, and no data", async () => {
    const secret = freshUrl("secret");
    const { bulk_id: bulkId } = await submitOk([secret]);
    await waitComplete(bulkId);
    const other = (await svc.account("business")).apiKey;
    for (const path of ["/v1.0/bulk", "/v1.1/bulk", "/bulk"]) {
      for (const force of ["", "&force=1"]) {
        const res = await svc.get(`${path}?bulk_id=${bulkId}&apikey=${other}${force}`);
        const text = await res.clone().text();
        await expectError(res, 404, "bulk_not_found");
        expect(text).not.toContain(secret);
        expect(text).not.toContain("urls_");
      }
    }
    // The owner still sees it.
    expect(Object.keys((await retrieve(bulkId)).data)).toEqual([secret]);
  });
});

describe("bulk and the daily quota", () => {
  it("counts each completed URL once, and retrieval never counts", async () => {
    const account = await svc.account("business");
    const urls = freshUrls(6, "quota");
    const lines = [...urls, urls[0]!, `${urls[1]!}#again`];
    const res = await submit("/v1.0/bulk", plain(lines.join("\n")), account.apiKey);
    const body = await res.json();
    expect(body.count).toBe(6);
    await waitComplete(body.bulk_id, { apiKey: account.apiKey });
    for (let i = 0; i < 3; i++) await retrieve(body.bulk_id, { apiKey: account.apiKey, force: "1" });
    expect(await quota(account.apiKey)).toMatchObject({ quota_used_today: 6, quota_remaining_today: 100_000 - 6 });
    const usage = await (await svc.get(`/v1.0/usage?apikey=${account.apiKey}`)).json();
    expect(usage[todayUtc()].queries).toBe(6);
  });

  it("pauses a job that runs out of quota with URLs still queued, refuses new jobs, and resumes when the plan is raised", async () => {
    const plan = `tiny-${rand()}`;
    await svc.prisma.plan.create({ data: { name: plan, dailyQuota: 5, bulkBatchLimit: 50, customTtlAllowed: false } });
    const { email, apiKey } = await svc.account(plan);
    const urls = freshUrls(8, "tiny");
    const { count, bulk_id: bulkId } = await submitOk(urls, apiKey, "/v1.1/bulk");
    expect(count).toBe(8);

    const paused = await until(
      "the job to pause for quota",
      () => retrieve(bulkId, { apiKey, path: "/v1.1/bulk", force: "1" }),
      (b) => b._meta.paused_until !== undefined,
    );
    const { paused_until: pausedUntil, ...progress } = paused._meta;
    expect(progress).toEqual({ urls_completed: 5, urls_queued: 8, completed: false, bulk_id: bulkId });
    const reset = `${addDays(todayUtc(), 1)}T00:00:00.000Z`;
    if (TEST_STACK === "scale" && pausedUntil !== reset) {
      // Redis takes a URL's query before its transaction commits: a URL caught between the two sees the quota used
      // up before the database does, and the jobs wait for a recheck (at most 2 minutes), not for the reset.
      expect(Date.parse(pausedUntil!) - Date.now()).toBeLessThanOrEqual(2 * 60_000);
    } else {
      expect(pausedUntil).toBe(reset);
    }
    const partial = paused.data as Record<string, unknown>;
    expect(Object.keys(partial)).toHaveLength(5);
    for (const [url, counts] of Object.entries(partial)) {
      expect(urls).toContain(url);
      expect(counts).toEqual(expectedV11(url));
    }
    expect((await retrieve(bulkId, { apiKey, path: "/v1.1/bulk" })).data).toEqual([]);
    expect(await quota(apiKey)).toMatchObject({ quota_used_today: 5, quota_remaining_today: 0, plan });

    // With the quota used up, new jobs are refused: 401 on v1.0 (and legacy /bulk), 403 on v1.1.
    const v10 = await expectError(await submit("/v1.0/bulk", plain(freshUrl()), apiKey), 401, "quota_exceeded");
    expect(v10.Error).toContain(`${addDays(todayUtc(), 1)}T00:00:00.000Z`);
    await expectError(await submit("/v1.1/bulk", plain(freshUrl()), apiKey), 403, "quota_exceeded");
    await expectError(await submit("/bulk", plain(freshUrl()), apiKey), 401, "quota_exceeded");
    // Still paused at 5: nothing moved, nothing over-counted.
    expect((await retrieve(bulkId, { apiKey, path: "/v1.1/bulk" }))._meta.urls_completed).toBe(5);

    await svc.accounts.setPlan(email, "business", FIXTURE_AUDIT);
    const done = await waitComplete(bulkId, { apiKey, path: "/v1.1/bulk" });
    expect(done._meta).toEqual({ urls_completed: 8, urls_queued: 8, completed: true, bulk_id: bulkId });
    expect(done.data).toEqual(Object.fromEntries(urls.map((u) => [u, expectedV11(u)])));
    expect(await quota(apiKey)).toMatchObject({ quota_used_today: 8, plan: "business" });
    const usage = await (await svc.get(`/v1.0/usage?apikey=${apiKey}`)).json();
    expect(usage[todayUtc()].queries).toBe(8);
  });

  it("completes, not pauses until midnight, when the plan is raised while the last URLs are being counted", async () => {
    const plan = `five-${rand()}`;
    await svc.prisma.plan.create({ data: { name: plan, dailyQuota: 5, bulkBatchLimit: 50, customTtlAllowed: false } });
    const { email, apiKey } = await svc.account(plan);
    await svc.knobs({ facebook: { latencyMs: 600 }, pinterest: { latencyMs: 600 } });
    const urls = freshUrls(6, "raise");
    const { bulk_id: bulkId } = await submitOk(urls, apiKey);
    await until("4 of 6 URLs to complete", () => retrieve(bulkId, { apiKey }), (b) => b._meta.urls_completed >= 4);
    // URLs 5 and 6 are now being counted under the old plan (5 queries): one of them would find it used up.
    await sleep(200);
    await svc.accounts.setPlan(email, "business", FIXTURE_AUDIT);
    const done = await until(
      "the job to complete after the plan was raised",
      () => retrieve(bulkId, { apiKey }),
      (b) => b._meta.completed || b._meta.paused_until !== undefined,
    );
    expect(done._meta).toEqual({ urls_completed: 6, urls_queued: 6, completed: true, bulk_id: bulkId });
    expect((await quota(apiKey)).quota_used_today).toBe(6);
  });

  it("resumes a paused job when plan:set raises the plan's daily quota", async () => {
    const plan = `three-${rand()}`;
    await svc.prisma.plan.create({ data: { name: plan, dailyQuota: 3, bulkBatchLimit: 50, customTtlAllowed: false } });
    const { apiKey } = await svc.account(plan);
    const urls = freshUrls(5, "planset");
    const { bulk_id: bulkId } = await submitOk(urls, apiKey);
    await until("the job to pause", () => retrieve(bulkId, { apiKey }), (b) => b._meta.paused_until !== undefined);
    await svc.accounts.updatePlan(plan, { dailyQuota: 10 });
    const done = await waitComplete(bulkId, { apiKey });
    expect(done._meta.urls_completed).toBe(5);
    expect((await quota(apiKey)).quota_used_today).toBe(5);
  });

  it("refuses a POST when single queries already used up the quota", async () => {
    const plan = `two-${rand()}`;
    await svc.prisma.plan.create({ data: { name: plan, dailyQuota: 2, bulkBatchLimit: 50, customTtlAllowed: false } });
    const { apiKey } = await svc.account(plan);
    for (let i = 0; i < 2; i++) {
      expect((await svc.get(`/v1.0/?url=${encodeURIComponent(freshUrl())}&apikey=${apiKey}`)).status).toBe(200);
    }
    await expectError(await submit("/v1.0/bulk", plain(freshUrl()), apiKey), 401, "quota_exceeded");
    await expectError(await submit("/v1.1/bulk", plain(freshUrl()), apiKey), 403, "quota_exceeded");
    expect((await quota(apiKey)).quota_used_today).toBe(2);
  });
});

describe("bulk scheduling", () => {
  it("serves jobs round-robin: a small job submitted behind a large one completes first", async () => {
    await svc.knobs({ facebook: { latencyMs: 150 }, pinterest: { latencyMs: 150 } });
    const large = await submitOk(freshUrls(60, "large"));
    const other = await svc.account("business");
    const small = await submitOk(freshUrls(3, "small"), other.apiKey);
    await waitComplete(small.bulk_id, { apiKey: other.apiKey });
    const progress = await retrieve(large.bulk_id);
    // Two URLs at a time: first-in-first-out would finish all 60 before the small job's first URL.
    expect(progress._meta.completed).toBe(false);
    expect(progress._meta.urls_completed).toBeLessThan(60);
    await waitComplete(large.bulk_id, {});
  });
});

// Last: a failing network must not disturb the other tests' counts.
describe("bulk with a failing network", () => {
  it("reports Facebook as null fields (never 0) and still completes the job", async () => {
    await svc.knobs({ facebook: { mode: "fail" } });
    const urls = freshUrls(3, "fbfail");
    const { bulk_id: bulkId } = await submitOk(urls, key, "/v1.0/bulk");
    const done = await waitComplete(bulkId);
    expect(done._meta).toMatchObject({ urls_completed: 3, urls_queued: 3, completed: true });
    for (const url of urls) {
      const counts = (done.data as Record<string, Record<string, unknown>>)[url]!;
      expect(counts.Facebook).toEqual({
        total_count: null,
        comment_count: null,
        reaction_count: null,
        share_count: null,
        comment_plugin_count: null,
      });
      expect(counts.Pinterest).toBe(expectedPinterest(url));
    }
    const v11 = await retrieve(bulkId, { path: "/v1.1/bulk" });
    for (const url of urls) {
      expect(((v11.data as Record<string, Record<string, unknown>>)[url]!.Facebook as Record<string, unknown>).total_count).toBeNull();
    }
  });
});
