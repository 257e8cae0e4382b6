import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDashboardBuild } from "../support/app.ts";
import { freePort, startChild, waitHealthy } from "../support/processes.ts";
import { scaleDeployment } from "./deployment.ts";

/*
 * `npm run start:web`: the dashboard alone, calling an API process (e2e/scale.spec.ts signs in through it).
 */

let deployment: Awaited<ReturnType<typeof scaleDeployment>>;

beforeAll(async () => {
  await ensureDashboardBuild();
  deployment = await scaleDeployment();
}, 600_000);
afterAll(() => deployment?.close());

describe("start:web", () => {
  it("refuses to start without SHARECOUNT_API_URL, saying so", async () => {
    const web = startChild("web", "start/dashboard.ts", { ...deployment.processEnv, PORT: String(await freePort()) });
    deployment.children.push(web);
    expect(await web.exited).toEqual({ code: 1, signal: null });
    expect(web.output.join("")).toMatch(/SHARECOUNT_API_URL: is required by start:web/);
  });

  // Starts the API and the dashboard processes: 20 s on a slow machine beside two CPU hogs.
  it("serves the dashboard against the API process, answers its health check, and exits 0 on SIGTERM", async () => {
    const api = await deployment.api("api");
    const port = await freePort();
    const web = startChild("web", "start/dashboard.ts", { ...deployment.processEnv, PORT: String(port), SHARECOUNT_API_URL: api.url });
    deployment.children.push(web);
    const base = `http://127.0.0.1:${port}`;
    await waitHealthy(`${base}/readyz`, web, 120_000);
    expect(await (await fetch(`${base}/readyz`)).json()).toEqual({
      status: "ready",
      checks: { dashboard: "up", database: "up", redis: "up", migrations: "up" },
    });
    expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: "up" });
    expect(await (await fetch(`${base}/metrics`)).text()).toContain("process_cpu_user_seconds_total");
    const signIn = await fetch(`${base}/sign-in`);
    expect(signIn.status).toBe(200);
    expect(await signIn.text()).toContain("Sign in");
    // API paths are the API processes' business, not the dashboard's.
    expect((await fetch(`${base}/v1.0/status`)).status).toBe(404);
    web.process.kill("SIGTERM");
    expect(await web.exited).toEqual({ code: 0, signal: null });
  }, 60_000);
});
