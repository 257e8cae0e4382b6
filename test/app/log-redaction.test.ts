import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdmin } from "../support/admin-cli.ts";
import { ensureDashboardBuild, startApp, type App } from "../support/app.ts";

/*
 * Everything `npm start` writes while it serves a key in every way a client sends one (query, bearer header,
 * path, bulk, bad requests, the dashboard's cookie), at LOG_LEVEL=debug: the key's value appears nowhere.
 */

let app: App;
let apiKey: string;

beforeAll(async () => {
  await ensureDashboardBuild();
  app = await startApp({ LOG_LEVEL: "debug" });
  const databaseUrl = `file:${app.dataDir}/app.db`;
  apiKey = (await runAdmin(databaseUrl, ["account:create", "--email", "logs@example.com", "--plan", "business"])).json.apikey as string;
}, 300_000);
afterAll(() => app?.close());

describe("the log of a whole run", () => {
  it("holds no API key, bearer token or session cookie however they were sent", async () => {
    const url = encodeURIComponent("https://example.com/logged");
    const bearer = { authorization: `Bearer ${apiKey}` };
    const answers = await Promise.all([
      fetch(`${app.url}/v1.0/?url=${url}&apikey=${apiKey}`),
      fetch(`${app.url}/v1.1/?url=not-a-url&apikey=${apiKey}`),
      fetch(`${app.url}/v1.0/quota?apiKey=${apiKey}`),
      fetch(`${app.url}/v2/counts?url=${url}`, { headers: bearer }),
      fetch(`${app.url}/v2/keys/${apiKey}`, { headers: bearer }),
      fetch(`${app.url}/v2/no-such-route?apikey=${apiKey}`),
      fetch(`${app.url}/v1.0/?url=${url}&apikey=${apiKey}`, { method: "DELETE" }),
      fetch(`${app.url}/v1.0/bulk?apikey=${apiKey}`, { method: "POST", body: "https://example.com/a\nhttps://example.com/b\nnot a url" }),
      fetch(`${app.url}/v2/bulk`, { method: "POST", headers: { ...bearer, "content-type": "application/json" }, body: "{not json" }),
      fetch(`${app.url}/dashboard`, { headers: { cookie: `authjs.session-token=${apiKey}` }, redirect: "manual" }),
      fetch(`${app.url}/api/dashboard/overview`, { headers: { cookie: `authjs.session-token=${apiKey}` } }),
      fetch(`${app.url}/metrics?apikey=${apiKey}`, { headers: bearer }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 400, 200, 200, 404, 404, 405, 200, 400, 307, 401, 200]);
    // Keys sent under names no client should use, inside the queried URL, and as a request id.
    const odd = await Promise.all([
      fetch(`${app.url}/v1.0/?url=${url}&key=${apiKey}`),
      fetch(`${app.url}/v1.0/?url=${url}&apikey[]=${apiKey}`),
      fetch(`${app.url}/v1.0/?url=${url}&apikey%3D${apiKey}`),
      fetch(`${app.url}/v1.0/?url=https://a.example;apikey=${apiKey}`),
      fetch(`${app.url}/v1.0/?url=https://a.example%26apikey%3D${apiKey}`),
      fetch(`${app.url}/v1.0/quota`, { headers: { "x-request-id": `k${apiKey}` } }),
    ]);
    for (const answer of odd) expect(answer.status).toBeLessThan(500);
    app.child.process.kill("SIGTERM");
    expect(await app.child.exited).toEqual({ code: 0, signal: null });
    const output = app.child.output.join("");
    expect(output).toMatch(/"event":"listening"/);
    expect(output).toMatch(/"event":"stopped"/);
    // At debug level each API request has its line, its target without the key.
    expect(output).toMatch(/"event":"request"[^\n]*"route":"\/v2\/keys\/:id"[^\n]*"path":"\/v2\/keys\/\[redacted\]"/);
    expect(output).not.toContain(apiKey);
  });
});
