import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scaleDeployment } from "./deployment.ts";

/*
 * Keys on the scale-out stack: two API processes, each caching the key after its first request, refuse a
 * revoked key, and a rolled key past its grace, within 2 seconds of the change (PostgreSQL's notification).
 */

let deployment: Awaited<ReturnType<typeof scaleDeployment>>;
let apis: { url: string }[];

beforeAll(async () => {
  deployment = await scaleDeployment();
  apis = await Promise.all([deployment.api("api-a"), deployment.api("api-b")]);
});
afterAll(async () => {
  await deployment?.close();
});

const quota = (api: { url: string }, apiKey: string) => fetch(`${api.url}/v1.0/quota?apikey=${apiKey}`);
const call = (api: { url: string }, key: string, method: string, path: string, body?: unknown) =>
  fetch(`${api.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** How long until every API process refuses `key` with `type` (polled every 50 ms, for at most 5 s). */
async function refusedEverywhereWithin(key: string, type: string): Promise<number> {
  const start = performance.now();
  for (const api of apis) {
    for (;;) {
      const res = await quota(api, key);
      if (res.status === 401 && ((await res.json()) as { Type: string }).Type === type) break;
      if (performance.now() - start > 5_000) throw new Error(`${api.url} still answers ${res.status} for the key after 5 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return performance.now() - start;
}

describe("keys on PostgreSQL + Redis", () => {
  it("a key revoked through one API process is refused by both within 2 seconds", async () => {
    const { apiKey } = await deployment.accounts.create({ email: "revoke-at-scale@example.com", plan: "business" });
    const made = await call(apis[0]!, apiKey, "POST", "/v2/keys", { name: "doomed", scopes: ["account:read"] });
    const doomed = (await made.json()) as { id: string; key: string };
    for (const api of apis) expect((await quota(api, doomed.key)).status).toBe(200);

    expect((await call(apis[1]!, apiKey, "DELETE", `/v2/keys/${doomed.id}`)).status).toBe(200);
    expect(await refusedEverywhereWithin(doomed.key, "invalid_api_key")).toBeLessThan(2_000);
    for (const api of apis) expect((await quota(api, apiKey)).status).toBe(200);
  });

  it("a key rolled without grace through one process is refused by both within 2 seconds; the new key works on both", async () => {
    const { apiKey } = await deployment.accounts.create({ email: "roll-at-scale@example.com", plan: "business" });
    const listed = (await (await call(apis[0]!, apiKey, "GET", "/v2/keys")).json()) as { data: { id: string }[] };
    for (const api of apis) expect((await quota(api, apiKey)).status).toBe(200);

    const rolled = await call(apis[0]!, apiKey, "POST", `/v2/keys/${listed.data[0]!.id}/roll`, { grace_seconds: 0 });
    expect(rolled.status).toBe(201);
    const { key } = (await rolled.json()) as { key: string };
    expect(await refusedEverywhereWithin(apiKey, "api_key_expired")).toBeLessThan(2_000);
    for (const api of apis) expect((await quota(api, key)).status).toBe(200);
  });
});
