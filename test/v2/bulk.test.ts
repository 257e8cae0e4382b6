import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MoreSandboxStats } from "../../service/sandbox/control.ts";
import { until } from "../support/processes.ts";
import { startTestService, type TestService } from "../support/service.ts";

/**
 * POST/GET /v2/bulk: v1's bulk semantics (batch limit, whitelist, quota paid per URL when counted, results
 * once complete or so far with force=1), with each URL answered in v2 network objects and only the job's
 * networks asked.
 */
let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({ BULK_CONCURRENCY: "8" });
});
afterAll(() => svc?.close());

const submit = (apiKey: string, body: unknown) =>
  svc.get("/v2/bulk", { method: "POST", headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" }, body: JSON.stringify(body) });
const read = (apiKey: string, bulkId: string, force = false) =>
  svc.get(`/v2/bulk?bulk_id=${bulkId}${force ? "&force=1" : ""}`, { headers: { authorization: `Bearer ${apiKey}` } });
const moreStats = async () => (await (await fetch(`${svc.sandboxOrigin}/__sandbox/more/stats`)).json()) as MoreSandboxStats;

type Job = {
  data: Record<string, Record<string, { status: string } & Record<string, unknown>>> | [];
  _meta: { completed: boolean; urls_completed: number; urls_queued: number; bulk_id: string; name: string | null; quota_spent: number };
};

async function finished(apiKey: string, bulkId: string): Promise<Job> {
  return until("the job to complete", async () => (await read(apiKey, bulkId)).json() as Promise<Job>, (job) => job._meta.completed, 30_000);
}

describe("v2 bulk jobs", () => {
  it("ask only the job's networks for every URL, and answer each URL in v2 network objects", async () => {
    const { apiKey } = await svc.account("business");
    await svc.resetSandbox();
    // Fewer than Reddit's 10 calls a minute: past its budget a network answers "unavailable", as in v1.
    const urls = Array.from({ length: 8 }, (_, i) => `https://bulk-v2.example.com/post-${i}`);
    const res = await submit(apiKey, { urls: [...urls, urls[0], "not a url"], networks: ["reddit", "vk"] });
    expect(res.status).toBe(200);
    const { count, bulk_id: bulkId } = await res.json();
    expect(count).toBe(8);

    const job = await finished(apiKey, bulkId);
    expect(job._meta).toEqual({ urls_completed: 8, urls_queued: 8, completed: true, bulk_id: bulkId, name: null, quota_spent: 8 });
    const data = job.data as Exclude<Job["data"], []>;
    expect(Object.keys(data)).toEqual(urls);
    for (const url of urls) {
      expect(Object.keys(data[url]!)).toEqual(["reddit", "vk"]);
      expect(data[url]!.reddit).toEqual({ status: "ok", score: expect.any(Number), comments: expect.any(Number), posts: expect.any(Number) });
      expect(data[url]!.vk).toEqual({ status: "ok", count: expect.any(Number) });
    }
    // The same numbers /v2/counts answers from the cache the job filled (no further calls).
    const single = await (await svc.get(`/v2/counts?url=${encodeURIComponent(urls[3]!)}&networks=reddit,vk`, { headers: { authorization: `Bearer ${apiKey}` } })).json();
    expect(single.networks).toEqual(data[urls[3]!]);

    const v1 = await svc.stats();
    const more = await moreStats();
    expect([v1.facebook.calls, v1.pinterest.calls, more.hackernews.calls, more.bluesky.calls, more.ok.calls, more.tumblr.calls]).toEqual([0, 0, 0, 0, 0, 0]);
    expect([more.reddit.calls, more.vk.calls]).toEqual([8, 8]);
    // Each URL is one query of the quota, as in v1 (the repeated one is not), and the single query one more.
    const quota = await (await svc.get(`/v1.0/quota?apikey=${apiKey}`)).json();
    expect(quota.quota_used_today).toBe(9);
  });

  it("asks the networks the account shows by default, and reads a v1 job's counts as network objects", async () => {
    const { apiKey, email } = await svc.account("business");
    await svc.prisma.account.update({ where: { email }, data: { networks: "facebook,tumblr" } });
    const { bulk_id: v2Id } = await (await submit(apiKey, { urls: ["https://bulk-v2.example.com/default"] })).json();
    const v2 = (await finished(apiKey, v2Id)).data as Exclude<Job["data"], []>;
    expect(Object.keys(v2["https://bulk-v2.example.com/default"]!)).toEqual(["facebook", "tumblr"]);

    const v1 = await svc.get(`/v1.0/bulk?apikey=${apiKey}`, { method: "POST", body: "https://bulk-v2.example.com/v1-job" });
    const { bulk_id: v1Id } = await v1.json();
    const read1 = (await finished(apiKey, v1Id)).data as Exclude<Job["data"], []>;
    expect(Object.keys(read1["https://bulk-v2.example.com/v1-job"]!)).toEqual(["facebook", "pinterest"]);
    expect(read1["https://bulk-v2.example.com/v1-job"]!.facebook!.status).toBe("ok");

    // The v2 job read through v1: Facebook's counts as a count object, Pinterest (not asked) not reported.
    const asV1 = await (await svc.get(`/v1.0/bulk?apikey=${apiKey}&bulk_id=${v2Id}`)).json();
    const object = asV1.data["https://bulk-v2.example.com/default"];
    expect(object.Facebook.total_count).toBe(v2["https://bulk-v2.example.com/default"]!.facebook!.total_count);
    expect(object.Pinterest).toBeNull();
  });

  it("lets an account read the history of the URLs it paid for, not of those still waiting for its quota", async () => {
    await svc.prisma.plan.upsert({
      where: { name: "one-a-day" },
      create: { name: "one-a-day", dailyQuota: 1, bulkBatchLimit: 100, customTtlAllowed: false, trackedUrlLimit: 10 },
      update: {},
    });
    const { apiKey } = await svc.account("one-a-day");
    const [paid, waiting] = ["https://bulk-v2.example.com/paid", "https://bulk-v2.example.com/waiting"];
    // Someone else's queries gave both URLs a history.
    const other = await svc.account("business");
    for (const url of [paid, waiting]) await svc.get(`/v1.0/?url=${encodeURIComponent(url)}&apikey=${other.apiKey}`);

    const { bulk_id: bulkId } = await (await submit(apiKey, { urls: [paid, waiting], networks: ["facebook"] })).json();
    const job = await until("the job to pause", async () => (await read(apiKey, bulkId)).json(), (j) => j._meta.paused_until !== undefined, 30_000);
    expect(job._meta).toMatchObject({ urls_completed: 1, quota_spent: 1 });
    const history = (url: string) => svc.get(`/v2/history?url=${encodeURIComponent(url)}`, { headers: { authorization: `Bearer ${apiKey}` } });
    const answered = Object.keys((await (await read(apiKey, bulkId, true)).json()).data)[0]!;
    const unanswered = answered === paid ? waiting : paid;
    expect((await history(answered)).status).toBe(200);
    expect((await history(unanswered)).status).toBe(404);
  });

  it("keeps the name a job is given and says what quota it spent, where v1 reads the job as it always did", async () => {
    const { apiKey } = await svc.account("business");
    const urls = ["https://bulk-v2.example.com/named-1", "https://bulk-v2.example.com/named-2", "https://bulk-v2.example.com/named-1#again"];
    const res = await submit(apiKey, { urls, networks: ["facebook"], name: "  März articles.csv  " });
    const submitted = await res.json();
    expect(submitted).toEqual({ count: 2, bulk_id: expect.any(String), name: "März articles.csv" });
    const job = await finished(apiKey, submitted.bulk_id);
    // The repeat is dropped before the job: two URLs counted, two queries spent.
    expect(job._meta).toMatchObject({ name: "März articles.csv", quota_spent: 2, urls_completed: 2 });
    const quota = await (await svc.get(`/v1.0/quota?apikey=${apiKey}`)).json();
    expect(quota.quota_used_today).toBe(2);

    const v1 = await (await svc.get(`/v1.0/bulk?apikey=${apiKey}&bulk_id=${submitted.bulk_id}`)).json();
    expect(Object.keys(v1._meta)).toEqual(["urls_completed", "urls_queued", "completed", "bulk_id"]);
    const v1Submitted = await (await svc.get(`/v1.0/bulk?apikey=${apiKey}`, { method: "POST", body: urls[0] })).json();
    expect(Object.keys(v1Submitted)).toEqual(["count", "bulk_id"]);
    expect((await finished(apiKey, v1Submitted.bulk_id))._meta).toMatchObject({ name: null, quota_spent: 1 });

    for (const name of ["", "   ", "tab\there", "two\nlines", "nul\u0000", "\u202Etxt.exe", "a\u2028b", "x".repeat(256)]) {
      const refused = await submit(apiKey, { urls: [urls[0]], name });
      expect([refused.status, (await refused.json()).Type], JSON.stringify(name)).toEqual([400, "invalid_body"]);
    }
    const longest = await submit(apiKey, { urls: [urls[0]], name: "x".repeat(255) });
    expect((await longest.json()).name).toHaveLength(255);
  });

  it("takes each network once, whatever its case, and names only a few unknown keys", async () => {
    const { apiKey } = await svc.account("business");
    const { bulk_id: bulkId } = await (await submit(apiKey, { urls: ["https://bulk-v2.example.com/case"], networks: ["vk", "VK", " vk"] })).json();
    const data = (await finished(apiKey, bulkId)).data as Exclude<Job["data"], []>;
    expect(Object.keys(data["https://bulk-v2.example.com/case"]!)).toEqual(["vk"]);
    const repeated = await submit(apiKey, { urls: ["https://bulk-v2.example.com/case"], networks: Array(100_000).fill("vk") });
    expect([repeated.status, (await repeated.json()).Type]).toEqual([400, "invalid_body"]);

    const keys = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`key${i}`, i]));
    const unknown = await submit(apiKey, { urls: ["https://bulk-v2.example.com/case"], ...keys });
    const error = await unknown.json();
    expect(error.Error).toMatch(/unknown parameters "key0", "key1", "key2", "key3", "key4" and 9995 more/);
    expect(error.Error.length).toBeLessThan(200);
    const noId = await svc.get("/v2/bulk", { headers: { authorization: `Bearer ${apiKey}` } });
    expect([noId.status, (await noId.json()).Type]).toEqual([400, "missing_bulk_id"]);
  });

  it("refuses what v1 refuses: free plans, too many URLs, no valid URL, networks the service does not ask, other accounts' jobs", async () => {
    const free = await svc.account("free");
    expect([(await submit(free.apiKey, { urls: ["https://a.example.com/"] })).status]).toEqual([403]);
    const { apiKey } = await svc.account("plus");
    const plan = await svc.prisma.plan.findUniqueOrThrow({ where: { name: "plus" } });
    const tooMany = await submit(apiKey, { urls: Array.from({ length: plan.bulkBatchLimit + 1 }, (_, i) => `https://many.example.com/${i}`) });
    expect([tooMany.status, (await tooMany.json()).Type]).toEqual([400, "bulk_limit_exceeded"]);
    const none = await submit(apiKey, { urls: ["not a url"] });
    expect([none.status, (await none.json()).Type]).toEqual([400, "no_valid_urls"]);
    // A NUL reached PostgreSQL in the URL as written (a 500 there): refused as any invalid line, in v1 too.
    const nul = await submit(apiKey, { urls: ["https://a.example.com/x\u0000y"] });
    expect([nul.status, (await nul.json()).Type]).toEqual([400, "no_valid_urls"]);
    const nulV1 = await svc.get(`/v1.0/bulk?apikey=${apiKey}`, { method: "POST", body: "https://a.example.com/x\u0000y\nhttps://a.example.com/ok" });
    expect(nulV1.status).toBe(200);
    expect((await nulV1.json()).count).toBe(1);
    const unknown = await submit(apiKey, { urls: ["https://a.example.com/"], networks: ["myspace"] });
    expect([unknown.status, (await unknown.json()).Type]).toEqual([400, "invalid_body"]);
    const notJson = await svc.get("/v2/bulk", { method: "POST", headers: { authorization: `Bearer ${apiKey}` }, body: "https://a.example.com/" });
    expect(notJson.status).toBe(415);

    const { bulk_id: bulkId } = await (await submit(apiKey, { urls: ["https://a.example.com/mine"] })).json();
    const other = await svc.account("plus");
    const foreign = await read(other.apiKey, bulkId);
    expect([foreign.status, (await foreign.json()).Type]).toEqual([404, "bulk_not_found"]);
    const partial = await (await read(apiKey, bulkId, true)).json();
    expect(partial._meta.bulk_id).toBe(bulkId);
  });
});
