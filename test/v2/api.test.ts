import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "../support/processes.ts";
import { headlineSum } from "../support/headline-sum.ts";
import { startTestService, type TestService } from "../support/service.ts";
import { bearer } from "../support/bearer.ts";
import { EVENT_TYPE_NAMES } from "../../lib/alerts/alert-types.ts";

/** API v2 end to end on the real service (its store, count service and scheduler), networks in the sandbox. */
let svc: TestService;
let seq = 0;
const fresh = (host = "example.com") => `https://${host}/v2-${++seq}-${Math.random().toString(36).slice(2, 8)}`;

beforeAll(async () => {
  svc = await startTestService({ REFRESH_POLL_MS: "100" });
});
afterAll(() => svc.close());

const post = (key: string, body: unknown) =>
  svc.get("/v2/tracked", { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(body) });

describe("GET /v2/counts", () => {
  it("answers each network with a status, by bearer token or apikey, and counts one query", async () => {
    const { apiKey } = await svc.account("free");
    const url = fresh();
    const res = await svc.get(`/v2/counts?url=${encodeURIComponent(url)}`, bearer(apiKey));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      url,
      networks: {
        facebook: { status: "ok", total_count: expect.any(Number), share_count: expect.any(Number) },
        pinterest: { status: "ok", count: expect.any(Number) },
      },
    });
    expect(Date.parse(body.fetched_at)).not.toBeNaN();
    expect(res.headers.get("x-quota-remaining")).toBe("499");
    const byParam = await (await svc.get(`/v2/counts?url=${encodeURIComponent(url)}&apikey=${apiKey}&networks=pinterest`)).json();
    expect(Object.keys(byParam.networks)).toEqual(["pinterest"]);
  });

  it("says unavailable with null values when a network fails and nothing is known, never 0", async () => {
    const { apiKey } = await svc.account("free");
    await svc.knobs({ pinterest: { mode: "fail" } });
    try {
      const body = await (await svc.get(`/v2/counts?url=${encodeURIComponent(fresh())}`, bearer(apiKey))).json();
      expect(body.networks.pinterest).toEqual({ status: "unavailable", reason: "upstream_error", retry_at: null, count: null });
      expect(body.networks.facebook).toMatchObject({ status: "ok" });
      expect(body.networks.facebook).not.toHaveProperty("reason");
    } finally {
      await svc.knobs({ pinterest: { mode: "ok" } });
    }
  });

  it("with variants, counts the four forms and combines them, Facebook's identical engagement once", async () => {
    const { apiKey } = await svc.account("free");
    const url = fresh("variants.example.com");
    const body = await (await svc.get(`/v2/counts?url=${encodeURIComponent(url)}&variants=true`, bearer(apiKey))).json();
    const forms = body.variants.map((v: { url: string }) => v.url);
    expect(forms).toHaveLength(4);
    expect(forms[0]).toBe(url);
    expect(new Set(forms.map((f: string) => new URL(f).protocol + new URL(f).hostname))).toEqual(
      new Set(["https:variants.example.com", "https:www.variants.example.com", "http:variants.example.com", "http:www.variants.example.com"]),
    );
    const pinterests = body.variants.map((v: { networks: { pinterest: { count: number } } }) => v.networks.pinterest.count);
    expect(body.networks.pinterest.count).toBe(pinterests.reduce((a: number, b: number) => a + b, 0));
    const engagements = new Map<string, number>();
    for (const v of body.variants) engagements.set(JSON.stringify(v.networks.facebook), v.networks.facebook.total_count);
    expect(body.networks.facebook.total_count).toBe([...engagements.values()].reduce((a, b) => a + b, 0));
    const quota = await (await svc.get(`/v1.0/quota?apikey=${apiKey}`)).json();
    expect(quota.quota_used_today).toBe(1);
  });

  it("refuses what it cannot answer with the v1 error object", async () => {
    const { apiKey } = await svc.account("free");
    const cases: [string, RequestInit | undefined, number, string][] = [
      ["/v2/counts?url=https://example.com/", undefined, 401, "missing_api_key"],
      ["/v2/counts?url=https://example.com/", bearer("nope"), 401, "invalid_api_key"],
      ["/v2/counts", bearer(apiKey), 400, "invalid_parameter"],
      ["/v2/counts?url=http://localhost/", bearer(apiKey), 400, "invalid_url"],
      ["/v2/counts?networks=myspace&url=https%3A%2F%2Fexample.com%2F", bearer(apiKey), 400, "invalid_parameter"],
      ["/v2/counts?callback=f&url=https%3A%2F%2Fexample.com%2F", bearer(apiKey), 400, "jsonp_not_supported"],
      ["/v2/nothing", bearer(apiKey), 404, "not_found"],
      // A url's own query string must be encoded in v2: what follows is read as parameters, and named.
      ["/v2/counts?url=https://example.com/a?b=1&c=2", bearer(apiKey), 400, "invalid_parameter"],
      [`/v2/counts?url=https%3A%2F%2Fexample.com%2F&apikey=${apiKey}`, bearer("another"), 400, "invalid_parameter"],
      ["/v2/counts?url=https%3A%2F%2Fexample.com%2F", { headers: { authorization: `Basic ${apiKey}` } }, 401, "invalid_api_key"],
    ];
    for (const [path, init, status, type] of cases) {
      const res = await svc.get(path, init);
      expect([path, res.status]).toEqual([path, status]);
      expect(await res.json()).toEqual({ Error: expect.any(String), Type: type });
    }
  });
});

describe("tracked URLs", () => {
  it("tracks URLs, counts them within a minute, and lists, pages and removes them", async () => {
    const { apiKey } = await svc.account("plus");
    const urls = [fresh(), fresh(), fresh()];
    const res = await post(apiKey, { urls: [...urls, urls[0], "not a url", "http://10.0.0.1/"] });
    expect(await res.json()).toEqual({ added: 3, already_tracked: 1, invalid: 2, over_limit: 0, over_quota: 0 });
    expect(await (await post(apiKey, { urls: [urls[1]] })).json()).toEqual({ added: 0, already_tracked: 1, invalid: 0, over_limit: 0, over_quota: 0 });

    // The scheduler in this process refreshes them (it polls every 100 ms here; 60 s is the promise).
    const deadline = Date.now() + 60_000;
    let list;
    do {
      list = await (await svc.get("/v2/tracked?sort=added&order=asc", bearer(apiKey))).json();
    } while (list.data.some((row: { last_refreshed_at: string | null }) => row.last_refreshed_at === null) && Date.now() < deadline);
    expect(list.data.map((row: { url: string }) => row.url)).toEqual(urls);
    for (const row of list.data) {
      expect(row.networks.facebook.status).toBe("ok");
      // Every network the service asks is recorded (the sandbox's twins answer for all eight).
      expect(Object.values(row.networks).map((n) => (n as { status: string }).status)).toEqual(Array(8).fill("ok"));
      expect(row.total).toBe(headlineSum(row.networks));
      expect(row.change_7d).toBeNull();
      expect(Date.parse(row.next_refresh_at) - Date.parse(row.last_refreshed_at)).toBe(3_600_000);
    }

    const withLines = await (await svc.get("/v2/tracked?sparkline=true", bearer(apiKey))).json();
    for (const row of withLines.data) {
      expect(row.sparkline).toHaveLength(30);
      // One refresh so far: one day with a point, whichever day it fell on.
      expect(row.sparkline.filter((v: number | null) => v !== null)).toEqual([row.total]);
    }
    expect(await (await svc.get("/v2/tracked/status", bearer(apiKey))).json()).toEqual({
      tracked: 3,
      limit: 5_000,
      due: 0,
      oldest_due_at: null,
      delayed: false,
    });

    expect((await (await svc.get("/v2/tracked?filter=uncounted", bearer(apiKey))).json()).data).toEqual([]);
    expect((await (await svc.get("/v2/tracked?filter=growing", bearer(apiKey))).json()).data).toEqual([]);
    const first = await (await svc.get("/v2/tracked?sort=total&order=desc&limit=2", bearer(apiKey))).json();
    expect(first.data).toHaveLength(2);
    const second = await (await svc.get(`/v2/tracked?sort=total&order=desc&limit=2&cursor=${first.next_cursor}`, bearer(apiKey))).json();
    expect(second.next_cursor).toBeNull();
    const totals = [...first.data, ...second.data].map((row: { total: number }) => row.total);
    expect(totals).toEqual([...totals].sort((a, b) => b - a));
    const wrong = await svc.get(`/v2/tracked?sort=added&cursor=${first.next_cursor}`, bearer(apiKey));
    expect(wrong.status).toBe(400);

    const removed = await svc.get(`/v2/tracked?url=${encodeURIComponent(urls[0]!)}`, { method: "DELETE", ...bearer(apiKey) });
    expect(removed.status).toBe(204);
    const again = await svc.get(`/v2/tracked?url=${encodeURIComponent(urls[0]!)}`, { method: "DELETE", ...bearer(apiKey) });
    expect([again.status, (await again.json()).Type]).toEqual([404, "tracked_url_not_found"]);
  });

  it("refuses a request that would pass the plan's limit, whole, saying how many slots are left", async () => {
    const { apiKey } = await svc.account("plus");
    await svc.prisma.plan.update({ where: { name: "plus" }, data: { trackedUrlLimit: 3 } });
    try {
      await svc.get("/v1.0/quota?apikey=" + apiKey);
      await post(apiKey, { urls: [fresh(), fresh()] });
      const stored = await svc.prisma.countedUrl.count();
      const res = await post(apiKey, { urls: [fresh(), fresh()] });
      // A refused request stores nothing, not even the URLs' ids.
      expect(await svc.prisma.countedUrl.count()).toBe(stored);
      expect(res.status).toBe(403);
      const body = await res.json();
      expect(body.Type).toBe("tracked_limit_exceeded");
      expect(body.Error).toMatch(/1 slot is left and the request would add 2\./);
      const list = await (await svc.get("/v2/tracked", bearer(apiKey))).json();
      expect(list.data).toHaveLength(2);
    } finally {
      await svc.prisma.plan.update({ where: { name: "plus" }, data: { trackedUrlLimit: 5_000 } });
    }
  });

  it("refuses bodies that are not the documented JSON", async () => {
    const { apiKey } = await svc.account("plus");
    const send = (body: string, type = "application/json") =>
      svc.get("/v2/tracked", { method: "POST", headers: { authorization: `Bearer ${apiKey}`, "content-type": type }, body });
    const tooMany = JSON.stringify({ urls: Array.from({ length: 10_001 }, (_, i) => `https://example.com/${i}`) });
    for (const [res, status, message] of [
      [await send("{"), 400, /not valid JSON/],
      [await send('{"urls":"https://example.com/"}'), 400, /urls/],
      [await send('{"urls":[]}'), 400, /at least one URL/],
      [await send(tooMany), 400, /at most 10000 URLs per request/],
      [await send('{"urls":["https://example.com/"],"feed":"https://example.com/f"}'), 400, /exactly one of urls, sitemap or feed/],
      [await send('{"url":"https://example.com/"}'), 400, /unknown parameter "url"/],
      [await send('{"urls":["https://example.com/"]}', "text/plain"), 415, /JSON/],
    ] as const) {
      expect(res.status).toBe(status);
      expect(await res.json()).toMatchObject({ Type: "invalid_body", Error: expect.stringMatching(message) });
    }
  });
});

describe("the networks an account shows", () => {
  it("are what tracked URLs, history and CSV answer, and what totals sum", async () => {
    const { apiKey, email } = await svc.account("plus");
    await svc.prisma.account.update({ where: { email }, data: { networks: "vk,ok" } });
    const url = fresh();
    await post(apiKey, { urls: [url] });
    const row = await until(
      "the URL refreshed",
      async () => (await (await svc.get("/v2/tracked", bearer(apiKey))).json()).data[0],
      (r) => r?.last_refreshed_at !== null,
      60_000,
    );
    expect(Object.keys(row.networks)).toEqual(["vk", "ok"]);
    expect(row.total).toBe(row.networks.vk.count + row.networks.ok.count);
    const history = await (await svc.get(`/v2/history?url=${encodeURIComponent(url)}`, bearer(apiKey))).json();
    expect(Object.keys(history.points[0].networks)).toEqual(["vk", "ok"]);
    const csv = await (await svc.get(`/v2/history.csv?url=${encodeURIComponent(url)}`, bearer(apiKey))).text();
    expect(csv.split("\r\n")[0]).toBe("url,t,vk_count,ok_count");
  });
});

describe("GET /v2/history", () => {
  it("serves URLs the account queried or tracks, as JSON and CSV, and 404 for any other", async () => {
    const { apiKey } = await svc.account("free");
    const other = await svc.account("free");
    const url = fresh();
    const counted = await (await svc.get(`/v1.1/?url=${encodeURIComponent(url)}&apikey=${apiKey}`)).json();
    const history = await (await svc.get(`/v2/history?url=${encodeURIComponent(url)}&interval=hour`, bearer(apiKey))).json();
    expect(history).toMatchObject({ url, interval: "hour" });
    expect(history.points).toHaveLength(1);
    expect(history.points[0].networks.facebook.total_count).toBe(counted.Facebook.total_count);
    expect(history.points[0].networks.pinterest.count).toBe(counted.Pinterest);

    const csv = await svc.get(`/v2/history.csv?url=${encodeURIComponent(url)}`, bearer(apiKey));
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    const { hostname, pathname } = new URL(url);
    expect(csv.headers.get("content-disposition")).toBe(`attachment; filename="${hostname}${pathname.replaceAll("/", "_")}_history.csv"`);
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toBe(
      "url,t,facebook_total_count,facebook_comment_count,facebook_reaction_count,facebook_share_count,facebook_comment_plugin_count,pinterest_count," +
        "reddit_score,reddit_comments,reddit_posts,hackernews_points,hackernews_comments,hackernews_stories," +
        "bluesky_likes,bluesky_reposts,bluesky_replies,bluesky_quotes,bluesky_posts,vk_count,ok_count,tumblr_notes",
    );
    // A v1 query asks Facebook and Pinterest only: the other networks' cells are empty, never 0.
    expect(lines[1]).toMatch(new RegExp(`^${url},[^,]+Z,.*,${counted.Pinterest},{14}$`));

    const denied = await svc.get(`/v2/history?url=${encodeURIComponent(url)}`, bearer(other.apiKey));
    expect([denied.status, (await denied.json()).Type]).toEqual([404, "not_found"]);
    const bad = await svc.get(`/v2/history?url=${encodeURIComponent(url)}&from=2026-02-30`, bearer(apiKey));
    expect(bad.status).toBe(400);
  });
});

describe("GET /v2/openapi.json", () => {
  it("is an OpenAPI 3.1 document of v1.0, v1.1 and v2, generated from the routes' schemas", async () => {
    const doc = await (await svc.get("/v2/openapi.json")).json();
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/v1.0/", "/v1.1/", "/v1.0/bulk", "/v2/counts", "/v2/tracked", "/v2/history", "/v2/history.csv", "/v2/networks", "/v2/bulk"]));
    expect(Object.keys(doc.paths["/v2/bulk"]).sort()).toEqual(["get", "post"]);
    expect(Object.keys(doc.components.schemas.Networks.properties)).toEqual(["facebook", "pinterest", "reddit", "hackernews", "bluesky", "vk", "ok", "tumblr"]);
    expect(doc.components.schemas.RedditCounts.required).toEqual(["status", "score", "comments", "posts"]);
    expect(Object.keys(doc.paths["/v2/tracked"]).sort()).toEqual(["delete", "get", "post"]);
    const sortParam = doc.paths["/v2/tracked"].get.parameters.find((p: { name: string }) => p.name === "sort");
    expect(sortParam.schema.enum).toEqual(["total", "change_7d", "added"]);
    expect(doc.components.schemas.V11CountObject.required).toEqual(["Pinterest", "Facebook"]);
    expect(Object.keys(doc.paths["/v2/webhooks/{id}"]).sort()).toEqual(["delete", "get", "patch"]);
    expect(doc.paths["/v2/webhooks"].post.responses["201"].content["application/json"].schema.$ref).toBe("#/components/schemas/WebhookEndpointCreated");
    expect(doc.components.schemas.WebhookEndpoint.properties).not.toHaveProperty("secret");
  });

  it("describes each event's webhook payload, with the Standard Webhooks headers", async () => {
    const doc = await (await svc.get("/v2/openapi.json")).json();
    expect(Object.keys(doc.webhooks)).toEqual(EVENT_TYPE_NAMES);
    for (const type of EVENT_TYPE_NAMES) {
      const post = doc.webhooks[type].post;
      expect(post.parameters.filter((p: { in: string }) => p.in === "header").map((p: { name: string }) => p.name)).toEqual(["webhook-id", "webhook-timestamp", "webhook-signature"]);
      const payload = post.requestBody.content["application/json"].schema;
      expect(payload.required).toEqual(["type", "timestamp", "data"]);
      expect(payload.properties.type.enum ?? [payload.properties.type.const]).toEqual([type]);
    }
    const quota = doc.webhooks["quota.warning"].post.requestBody.content["application/json"].schema.properties.data;
    expect(quota.required).toEqual(["used", "quota", "day"]);
  });
});
