import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NETWORK_REASONS, REASON_MEANINGS } from "../../lib/v2/reasons.ts";
import type { MoreSandboxKnobs } from "../../service/sandbox/control.ts";
import { sleep } from "../support/processes.ts";
import { startTestService, type TestService } from "../support/service.ts";

/**
 * Why a network has no fresh value, on /v2/counts and on the tracked answers: one set of reasons, from the
 * network's state now or from what the answer itself tells, with retry_at where it is known; and that set in the
 * OpenAPI document. No worker runs here, so a tracked URL stays uncounted for as long as a test needs.
 */
let svc: TestService;
let apiKey: string;
let seq = 0;
const fresh = () => `https://reasons.example.com/post-${++seq}-${Math.random().toString(36).slice(2, 8)}`;

beforeAll(async () => {
  // Reddit and the rest are off; a cached answer is fresh for 1 s (the stale test).
  svc = await startTestService({ SHARECOUNT_V2_NETWORKS: "vk,tumblr", COUNT_CACHE_TTL_SECONDS: "1" }, { worker: false });
  ({ apiKey } = await svc.account("business"));
});
afterAll(() => svc?.close());

const v2 = (path: string, init: RequestInit = {}) => svc.get(path, { ...init, headers: { authorization: `Bearer ${apiKey}`, ...init.headers } });
const counts = async (url: string, networks: string) => (await (await v2(`/v2/counts?url=${encodeURIComponent(url)}&networks=${networks}`)).json()).networks;
const moreKnobs = async (knobs: { [N in keyof MoreSandboxKnobs]?: Partial<MoreSandboxKnobs[N]> }) => {
  const res = await fetch(`${svc.sandboxOrigin}/__sandbox/more/knobs`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(knobs) });
  expect(res.status).toBe(200);
};
const secondsUntil = (iso: string) => (Date.parse(iso) - Date.now()) / 1000;

describe("a network's reason", () => {
  it("is throttled on /v2/counts until the network's Retry-After, and so on a tracked URL; the URL's other networks are pending until its first refresh", async () => {
    // Tumblr stays throttled for the rest of this file: the other tests leave it out.
    await moreKnobs({ tumblr: { mode: "throttle", retryAfterSeconds: 600 } });
    const url = fresh();
    const tumblr = (await counts(url, "tumblr")).tumblr;
    expect(tumblr).toMatchObject({ status: "unavailable", reason: "throttled", notes: null });
    expect(secondsUntil(tumblr.retry_at)).toBeGreaterThan(500);
    expect(secondsUntil(tumblr.retry_at)).toBeLessThanOrEqual(600);
    await moreKnobs({ tumblr: { mode: "ok" } });

    const track = await v2("/v2/tracked", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ urls: [url] }) });
    expect(track.status).toBe(200);
    const row = (await (await v2("/v2/tracked")).json()).data[0];
    expect(row.last_refreshed_at).toBeNull();
    // Asked again when the throttling ends, which is after the URL's first refresh (due now).
    expect(row.networks.tumblr).toEqual({ status: "unavailable", reason: "throttled", retry_at: tumblr.retry_at, notes: null });
    expect(row.networks.vk).toEqual({ status: "unavailable", reason: "pending", retry_at: row.next_refresh_at, count: null });
    expect(row.networks.facebook).toMatchObject({ status: "unavailable", reason: "pending", retry_at: row.next_refresh_at });
    const detail = await (await v2(`/v2/tracked/url?url=${encodeURIComponent(url)}`)).json();
    expect(detail.networks.vk).toEqual(row.networks.vk);
    expect(detail.forms[0].networks.pinterest).toMatchObject({ reason: "pending", retry_at: row.next_refresh_at });
  });

  it("is not_configured on /v2/counts for a network this service does not ask, and upstream_error for an answer without a count", async () => {
    await svc.knobs({ pinterest: { mode: "dash" } });
    try {
      const networks = await counts(fresh(), "facebook,pinterest,reddit");
      expect(networks.reddit).toEqual({ status: "unavailable", reason: "not_configured", retry_at: null, score: null, comments: null, posts: null });
      // Pinterest answered "-": it works (its state is ok), but this answer had no count.
      expect(networks.pinterest).toEqual({ status: "unavailable", reason: "upstream_error", retry_at: null, count: null });
      expect(networks.facebook.status).toBe("ok");
      expect(networks.facebook).not.toHaveProperty("reason");
    } finally {
      await svc.knobs({ pinterest: { mode: "ok" } });
    }
  });

  it("comes with a stale value too: its last known count, and why it is not a fresh one", async () => {
    const url = fresh();
    const first = (await counts(url, "vk")).vk;
    expect(first).toEqual({ status: "ok", count: expect.any(Number) });
    await moreKnobs({ vk: { mode: "throttle", retryAfterSeconds: 300 } });
    try {
      await sleep(1100);
      const vk = (await counts(url, "vk")).vk;
      expect(vk).toEqual({ status: "stale", age_seconds: expect.any(Number), reason: "throttled", retry_at: expect.any(String), count: first.count });
      expect(secondsUntil(vk.retry_at)).toBeGreaterThan(200);
    } finally {
      await moreKnobs({ vk: { mode: "ok" } });
    }
  });

  it("is one set, each reason explained in the OpenAPI document, and every network object refers to it", async () => {
    const doc = await (await svc.get("/v2/openapi.json")).json();
    const reason = doc.components.schemas.NetworkReason;
    expect(reason.enum).toEqual([...NETWORK_REASONS]);
    for (const name of NETWORK_REASONS) expect(reason.description).toContain(`${name} (${REASON_MEANINGS[name]})`);
    for (const schema of ["FacebookCounts", "PinterestCounts", "RedditCounts", "TumblrCounts"]) {
      expect(JSON.stringify(doc.components.schemas[schema].properties.reason)).toContain('"$ref":"#/components/schemas/NetworkReason"');
    }
  });
});
