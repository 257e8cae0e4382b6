import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scaleDeployment } from "./deployment.ts";

/* The operator paths of the scale-out processes: an API process and a worker, on PostgreSQL and Redis. */

let deployment: Awaited<ReturnType<typeof scaleDeployment>>;

beforeAll(async () => {
  deployment = await scaleDeployment();
}, 600_000);
afterAll(() => deployment?.close());

describe("operator paths on the scale stack", () => {
  it("the API and the worker are alive, ready (database, Redis, migrations) and export their metrics", async () => {
    const [api, worker] = await Promise.all([deployment.api("api"), deployment.worker("worker")]);
    for (const process of [api, worker]) {
      expect(await (await fetch(`${process.url}/healthz`)).json()).toEqual({ status: "up" });
      const ready = await fetch(`${process.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: "ready", checks: { database: "up", redis: "up", migrations: "up" } });
    }
    await fetch(`${api.url}/v1.0/quota?apikey=${"1".repeat(40)}`);
    const apiMetrics = await (await fetch(`${api.url}/metrics`)).text();
    expect(apiMetrics).toMatch(/^sharecount_http_requests_total\{route="\/v1\.0\/quota",method="GET",status="401"\} 1$/m);
    const workerMetrics = await fetch(`${worker.url}/metrics`);
    expect(workerMetrics.status).toBe(200);
    expect(await workerMetrics.text()).toMatch(/^nodejs_eventloop_lag_seconds /m);
    // The worker answers nothing else.
    const other = await fetch(`${worker.url}/v1.0/status`);
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ Type: "not_found" });
  });
});
