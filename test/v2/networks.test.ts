import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MoreSandboxKnobs, MoreSandboxStats } from "../../service/sandbox/control.ts";
import { sleep, until } from "../support/processes.ts";
import { deriveMoreCounts } from "../../service/sandbox/derive-counts.ts";
import { countsAnswerSchema } from "../../lib/v2/schemas.ts";
import { startTestService, TEST_STACK, type TestService } from "../support/service.ts";
import { apiListener } from "../../service/http/api-listener.ts";
import { createHttpServer } from "../../service/http/front-door.ts";
import { startRuntime } from "../../service/wiring.ts";
import type { AddressInfo } from "node:net";

/**
 * The networks beyond Facebook and Pinterest in API v2: `networks=` asks only the networks named (counted
 * where the calls land, in the sandbox's stats), each network's status and stale-if-error, and
 * `GET /v2/networks` after each fault of the twins.
 */
let svc: TestService;
let apiKey: string;
let email: string;
let seq = 0;
const fresh = () => `https://networks.example.com/post-${++seq}-${Math.random().toString(36).slice(2, 8)}`;

beforeAll(async () => {
  // Tumblr is off; OK.ru times out quickly (its "hang" test); a cached answer is fresh for 1 s (the stale test).
  svc = await startTestService({ SHARECOUNT_V2_NETWORKS: "reddit,hackernews,bluesky,vk,ok", OK_TIMEOUT_MS: "300", COUNT_CACHE_TTL_SECONDS: "1" });
  ({ apiKey, email } = await svc.account("business"));
});
afterAll(() => svc?.close());

const counts = (url: string, networks?: string) =>
  svc.get(`/v2/counts?url=${encodeURIComponent(url)}${networks ? `&networks=${networks}` : ""}`, { headers: { authorization: `Bearer ${apiKey}` } });
const moreStats = async () => (await (await fetch(`${svc.sandboxOrigin}/__sandbox/more/stats`)).json()) as MoreSandboxStats;
const moreKnobs = async (knobs: { [N in keyof MoreSandboxKnobs]?: Partial<MoreSandboxKnobs[N]> }) => {
  const res = await fetch(`${svc.sandboxOrigin}/__sandbox/more/knobs`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(knobs) });
  expect(res.status).toBe(200);
};
type Health = { network: string; state: string; retry_at: string | null; last_success_at: string | null; errors_last_hour: number; calls_last_hour: number; skipped_last_hour: number; enabled: boolean; budget: { per_hour: number | null; used_last_hour: number } };
const health = async (network: string): Promise<Health> => {
  const res = await svc.get("/v2/networks", { headers: { authorization: `Bearer ${apiKey}` } });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { networks: Health[] };
  return body.networks.find((n) => n.network === network)!;
};

describe("networks= on /v2/counts", () => {
  it("asks only the networks named, answers only those, and serves them from the cache after", async () => {
    await svc.resetSandbox();
    const url = fresh();
    const res = await counts(url, "reddit,hackernews");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(Object.keys(body.networks)).toEqual(["reddit", "hackernews"]);
    expect(body.networks.reddit).toEqual({ status: "ok", score: expect.any(Number), comments: expect.any(Number), posts: expect.any(Number) });
    expect(body.networks.hackernews).toEqual({ status: "ok", points: expect.any(Number), comments: expect.any(Number), stories: expect.any(Number) });

    const v1 = await svc.stats();
    expect([v1.facebook.calls, v1.pinterest.calls]).toEqual([0, 0]);
    const more = await moreStats();
    expect([more.reddit.calls, more.hackernews.calls, more.bluesky.calls, more.vk.calls, more.ok.calls, more.tumblr.calls]).toEqual([1, 1, 0, 0, 0, 0]);

    // Facebook alone: Pinterest is not asked.
    expect(Object.keys((await (await counts(url, "facebook")).json()).networks)).toEqual(["facebook"]);
    const after = await svc.stats();
    expect([after.facebook.calls, after.pinterest.calls]).toEqual([1, 0]);

    // v1 asks Facebook and Pinterest only, as it always did; v2 then reads Facebook from v1's cached answer.
    const v1Url = fresh();
    const v1Answer = await (await svc.get(`/v1.1/?url=${encodeURIComponent(v1Url)}&apikey=${apiKey}`)).json();
    // At once: this service's cached answers are fresh for a second.
    const facebook = (await (await counts(v1Url, "facebook")).json()).networks.facebook;
    expect((await moreStats()).reddit.calls).toBe(1);
    expect(Object.values(await moreStats()).reduce((sum, twin) => sum + twin.calls, 0)).toBe(2);
    expect(facebook.total_count).toBe(v1Answer.Facebook.total_count);
    expect((await svc.stats()).facebook.calls).toBe(2);
  });

  it("asks the networks the account shows when none are named, and answers a network this service does not ask as not configured", async () => {
    await svc.resetSandbox();
    const all = await (await counts(fresh())).json();
    expect(Object.keys(all.networks)).toEqual(["facebook", "pinterest", "reddit", "hackernews", "bluesky", "vk", "ok"]);
    expect(Object.values(all.networks).map((n) => (n as { status: string }).status)).toEqual(Array(7).fill("ok"));

    await svc.prisma.account.update({ where: { email }, data: { networks: "vk,ok" } });
    await expect.poll(async () => Object.keys((await (await counts(fresh())).json()).networks), { timeout: 5000 }).toEqual(["vk", "ok"]);
    await svc.prisma.account.update({ where: { email }, data: { networks: null } });

    const off = await counts(fresh(), "reddit,tumblr");
    expect(off.status).toBe(200);
    const answered = (await off.json()).networks;
    expect(answered.tumblr).toEqual({ status: "unavailable", reason: "not_configured", retry_at: null, notes: null });
    expect(answered.reddit.status).toBe("ok");
    expect(answered.reddit).not.toHaveProperty("reason");
    expect((await moreStats()).tumblr.calls).toBe(0);
    const unknown = await counts(fresh(), "myspace");
    expect([unknown.status, (await unknown.json()).Type]).toEqual([400, "invalid_parameter"]);
  });

  it("answers a negative Reddit score as it is, within the published schema", async () => {
    const candidates = Array.from({ length: 5000 }, (_, i) => `https://networks.example.com/negative-${i}`);
    const url = candidates.find((u) => deriveMoreCounts(u).reddit.reduce((sum, s) => sum + s.score, 0) < 0)!;
    const body = await (await counts(url, "reddit")).json();
    expect(body.networks.reddit.score).toBeLessThan(0);
    expect(countsAnswerSchema.safeParse(body).success).toBe(true);
  });

  it("answers a failed network's last known values as stale, with their age, never 0", async () => {
    await moreKnobs({ hackernews: { mode: "ok" } });
    const url = fresh();
    const first = (await (await counts(url, "hackernews")).json()).networks.hackernews;
    expect(first.status).toBe("ok");
    await moreKnobs({ hackernews: { mode: "fail" } });
    await sleep(1100);
    const second = (await (await counts(url, "hackernews")).json()).networks.hackernews;
    // Its state now says why: its last answer was an error (no time is known for that).
    expect(second).toEqual({ ...first, status: "stale", age_seconds: expect.any(Number), reason: "upstream_error", retry_at: null });
    expect(second.age_seconds).toBeGreaterThanOrEqual(1);

    const never = (await (await counts(fresh(), "hackernews")).json()).networks.hackernews;
    expect(never).toEqual({ status: "unavailable", reason: "upstream_error", retry_at: null, points: null, comments: null, stories: null });
    await moreKnobs({ hackernews: { mode: "ok" } });
  });
});

describe("GET /v2/networks", () => {
  it("lists every network with its state, budget and last hour", async () => {
    const res = await svc.get(`/v2/networks?apikey=${apiKey}`);
    const body = await res.json();
    expect(body.networks.map((n: Health) => n.network)).toEqual(["facebook", "pinterest", "reddit", "hackernews", "bluesky", "vk", "ok", "tumblr"]);
    expect(await health("tumblr")).toMatchObject({ enabled: false, state: "disabled", calls_last_hour: 0 });
    const reddit = await health("reddit");
    expect(reddit).toMatchObject({ enabled: true, state: "ok", errors_last_hour: 0, skipped_last_hour: 0, budget: { per_hour: 600 } });
    expect(reddit.calls_last_hour).toBeGreaterThanOrEqual(1);
    expect(reddit.budget.used_last_hour).toBe(reddit.calls_last_hour);
    expect(Date.parse(reddit.last_success_at!)).toBeGreaterThan(Date.now() - 60_000);
    expect((await svc.get("/v2/networks")).status).toBe(401);
  });

  it("says throttled until the network's Retry-After, and asks it no more meanwhile", async () => {
    await moreKnobs({ reddit: { mode: "throttle", retryAfterSeconds: 120 } });
    const before = (await moreStats()).reddit.calls;
    const answer = (await (await counts(fresh(), "reddit")).json()).networks.reddit;
    expect(answer).toMatchObject({ status: "unavailable", reason: "throttled" });
    const reddit = await health("reddit");
    expect(answer.retry_at).toBe(reddit.retry_at);
    expect(reddit.state).toBe("throttled");
    const wait = Date.parse(reddit.retry_at!) - Date.now();
    expect(wait).toBeGreaterThan(100_000);
    expect(wait).toBeLessThanOrEqual(120_000);
    expect(reddit.errors_last_hour).toBe(1);

    await counts(fresh(), "reddit");
    expect((await moreStats()).reddit.calls).toBe(before + 1);
    // The call not made is counted as skipped, apart from the calls and errors.
    expect(await health("reddit")).toMatchObject({ calls_last_hour: reddit.calls_last_hour, errors_last_hour: 1, skipped_last_hour: 1 });
  });

  it.runIf(TEST_STACK === "scale")("is the same from every process sharing Redis: another API process reports the throttle it never saw", async () => {
    const other = await startRuntime(svc.env, { worker: false });
    const server = createHttpServer(apiListener(other.routes));
    try {
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v2/networks?apikey=${apiKey}`);
      const reddit = ((await res.json()) as { networks: Health[] }).networks.find((n) => n.network === "reddit")!;
      expect(reddit).toMatchObject({ state: "throttled", errors_last_hour: 1, retry_at: (await health("reddit")).retry_at });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await other.close();
    }
  });

  it("backs off 30 s after a 429 without Retry-After", async () => {
    await moreKnobs({ vk: { mode: "429" } });
    await counts(fresh(), "vk");
    const vk = await health("vk");
    expect(vk.state).toBe("throttled");
    const wait = Date.parse(vk.retry_at!) - Date.now();
    expect(wait).toBeGreaterThan(20_000);
    expect(wait).toBeLessThanOrEqual(30_000);
  });

  it("says unavailable after a failure, garbage or a timeout, and ok again after a good answer", async () => {
    for (const mode of ["fail", "garbage"] as const) {
      await moreKnobs({ hackernews: { mode } });
      const before = (await health("hackernews")).errors_last_hour;
      await counts(fresh(), "hackernews");
      const hn = await health("hackernews");
      expect([mode, hn.state, hn.errors_last_hour]).toEqual([mode, "unavailable", before + 1]);
    }
    await moreKnobs({ hackernews: { mode: "ok" } });
    await counts(fresh(), "hackernews");
    expect((await health("hackernews")).state).toBe("ok");

    await moreKnobs({ ok: { mode: "hang" } });
    const answer = (await (await counts(fresh(), "ok")).json()).networks.ok;
    expect(answer).toEqual({ status: "unavailable", reason: "upstream_error", retry_at: null, count: null });
    expect(await health("ok")).toMatchObject({ state: "unavailable", errors_last_hour: 1 });
    await moreKnobs({ ok: { mode: "ok" } });
  });

  it("says credentials_rejected when Bluesky refuses the session", async () => {
    await moreKnobs({ bluesky: { mode: "reject-credentials" } });
    const answer = (await (await counts(fresh(), "bluesky")).json()).networks.bluesky;
    expect(answer).toMatchObject({ status: "unavailable", reason: "credentials_rejected", retry_at: null });
    expect((await health("bluesky")).state).toBe("credentials_rejected");
  });
});

describe("the refresh share of a network's budget, spent", () => {
  let spent: TestService;
  beforeAll(async () => {
    // VK: 4 calls an hour, half of them for refreshes, one a minute: the second and third tracked URLs wait.
    spent = await startTestService({ SHARECOUNT_V2_NETWORKS: "vk", VK_CALLS_PER_HOUR: "4", REFRESH_BUDGET_SHARE: "0.5", REFRESH_POLL_MS: "100" });
  });
  afterAll(() => spent?.close());

  it("says budget_exhausted on /v2/networks with the share and what refreshes took, and reason budget on the tracked URLs it left out", async () => {
    const { apiKey: key } = await spent.account("business");
    const auth = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const urls = [1, 2, 3].map((i) => `https://example.com/refresh-share-${i}`);
    expect((await spent.get("/v2/tracked", { method: "POST", headers: auth, body: JSON.stringify({ urls }) })).status).toBe(200);
    const rows = await until(
      "all three refreshed",
      async () => (await (await spent.get("/v2/tracked", { headers: auth })).json()).data as { last_refreshed_at: string | null; networks: Record<string, Record<string, unknown>> }[],
      (data) => data.length === 3 && data.every((row) => row.last_refreshed_at !== null),
      20_000,
    );
    const vk = (await (await spent.get("/v2/networks", { headers: auth })).json()).networks.find((n: Health) => n.network === "vk");
    expect(vk).toMatchObject({ state: "budget_exhausted", budget: { per_hour: 4, refresh_per_hour: 2, refresh_used_last_hour: 1 } });
    expect(Date.parse(vk.retry_at)).toBeGreaterThan(Date.now());
    const left = rows.filter((row) => row.networks.vk!.status === "unavailable");
    expect(left).toHaveLength(2);
    expect(left[0]!.networks.vk).toMatchObject({ status: "unavailable", reason: "budget", count: null });
    // When the share opens again: within the hour.
    expect(Date.parse(left[0]!.networks.vk!.retry_at as string) - Date.now()).toBeGreaterThan(0);
    expect(Date.parse(left[0]!.networks.vk!.retry_at as string) - Date.now()).toBeLessThanOrEqual(3_600_000);
    // The networks that answered say nothing of a reason.
    expect(rows.every((row) => row.networks.facebook!.reason === undefined)).toBe(true);
  });
});
