import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDashboardBuild, startApp, type App } from "../support/app.ts";

/*
 * What an orchestrator and Prometheus ask of `npm start`: /healthz, /readyz and /metrics on its one port,
 * before the API and the dashboard, and /metrics only for those allowed to read it.
 */

const TOKEN = "metrics-token-for-the-test-0123";
let open: App;
let guarded: App;

beforeAll(async () => {
  await ensureDashboardBuild();
  [open, guarded] = await Promise.all([startApp(), startApp({ METRICS_TOKEN: TOKEN })]);
}, 300_000);
afterAll(() => Promise.all([open?.close(), guarded?.close()]));

describe("operator paths of the one process", () => {
  it("/healthz is alive, /readyz names what it checked, and neither is cached", async () => {
    const live = await fetch(`${open.url}/healthz`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: "up" });
    const ready = await fetch(`${open.url}/readyz?verbose=1`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get("cache-control")).toBe("no-store");
    expect(await ready.json()).toEqual({ status: "ready", checks: { database: "up", migrations: "up", dashboard: "up" } });
    expect((await fetch(`${open.url}/readyz`, { method: "POST" })).status).toBe(405);
  });

  it("/metrics labels requests by route pattern, never by the raw path or the queried URL", async () => {
    await fetch(`${open.url}/v2/keys/k_0123456789abcdef`);
    await fetch(`${open.url}/v1.0/?url=${encodeURIComponent("https://secret-article.example/")}&apikey=${"0".repeat(40)}`);
    await fetch(`${open.url}/v2/no-such-route-here`);
    await fetch(`${open.url}/v1.0/?url=x`, { method: "PROPFIND" });
    const answer = await fetch(`${open.url}/metrics`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await answer.text();
    expect(text).toMatch(/^sharecount_http_requests_total\{route="\/v2\/keys\/:id",method="GET",status="401"\} [1-9]/m);
    expect(text).toMatch(/^sharecount_http_requests_total\{route="\/v1\.0",method="GET",status="401"\} [1-9]/m);
    expect(text).toMatch(/^sharecount_http_requests_total\{route="unmatched",method="GET",status="404"\} [1-9]/m);
    // Methods beyond the usual few are one label value, however many Node's parser accepts.
    expect(text).toMatch(/^sharecount_http_requests_total\{route="\/v1\.0",method="other",status="405"\} [1-9]/m);
    expect(text).not.toContain("PROPFIND");
    expect(text).toMatch(/^sharecount_http_request_duration_seconds_bucket\{le="0\.1",route="\/v1\.0"\} [1-9]/m);
    expect(text).toMatch(/^process_cpu_user_seconds_total /m);
    for (const raw of ["k_0123456789abcdef", "secret-article", "no-such-route-here", "0".repeat(40)]) expect(text).not.toContain(raw);
  });

  it("with METRICS_TOKEN, /metrics answers the bearer of the token and is a 404 to everyone else, loopback included", async () => {
    const anonymous = await fetch(`${guarded.url}/metrics`);
    expect(anonymous.status).toBe(404);
    expect(await anonymous.json()).toMatchObject({ Type: "not_found" });
    expect((await fetch(`${guarded.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}x` } })).status).toBe(404);
    const bearer = await fetch(`${guarded.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(bearer.status).toBe(200);
    expect(await bearer.text()).toContain("# TYPE sharecount_http_requests_total counter");
    expect((await fetch(`${guarded.url}/healthz`)).status).toBe(200);
  });
});
