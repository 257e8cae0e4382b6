import { Counter, Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { BatchedCounter, BatchedHistogram } from "./batched-metrics.ts";

const BUCKETS = [0.001, 0.01, 0.1, 1];
const OBSERVED: [string, number][] = [
  ["/v1.0", 0.0004],
  ["/v1.0", 0.001],
  ["/v1.0", 0.05],
  ["/v2/keys/:id", 3],
  ["/v1.0", 0.2],
  ["/v2/keys/:id", 0.0101],
];

describe("batched metrics", () => {
  it("export exactly what prom-client's own counter and histogram export for the same observations", async () => {
    const reference = new Registry();
    const counter = new Counter({ name: "t_requests_total", help: "h", labelNames: ["route", "status"], registers: [reference] });
    const histogram = new Histogram({ name: "t_duration_seconds", help: "h", labelNames: ["route"], buckets: BUCKETS, registers: [reference] });
    const batched = new Registry();
    const fastCounter = new BatchedCounter({ name: "t_requests_total", help: "h", labelNames: ["route", "status"] as const }, batched);
    const fastHistogram = new BatchedHistogram("t_duration_seconds", "h", "route", BUCKETS, batched);

    const observe = () => {
      for (const [route, seconds] of OBSERVED) {
        counter.inc({ route, status: "200" });
        histogram.observe({ route }, seconds);
        fastCounter.inc(`${route} 200`, () => ({ route, status: "200" }));
        fastHistogram.observe(route, seconds);
      }
    };
    observe();
    expect(await batched.metrics()).toBe(await reference.metrics());
    // Read twice, with more between: nothing is counted twice or lost.
    observe();
    fastCounter.inc("/v1.0 200", () => ({ route: "/v1.0", status: "200" }), 5);
    counter.inc({ route: "/v1.0", status: "200" }, 5);
    expect(await batched.metrics()).toBe(await reference.metrics());
    expect(await batched.metrics()).toBe(await reference.metrics());
  });
});
