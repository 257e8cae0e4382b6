import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { configureLogging } from "../../lib/log/log.ts";
import { startTestService, type TestService } from "../support/service.ts";

/* A bulk job keeps the X-Request-Id of the request that submitted it, and the worker's log lines carry it. */

let svc: TestService;
const lines: Record<string, unknown>[] = [];

beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());
afterEach(() => configureLogging({ level: "info", format: "json" }));

describe("a bulk job's request id", () => {
  it("is stored with the job and logged with each URL the worker counts, v1 and v2 alike", async () => {
    configureLogging({ level: "debug", format: "json" }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    const { apiKey } = await svc.account("business");
    const v1 = await svc.get(`/v1.0/bulk?apikey=${apiKey}`, {
      method: "POST",
      headers: { "x-request-id": "bulk-v1.req-7" },
      body: "https://example.com/rid-1\nhttps://example.com/rid-2",
    });
    expect(v1.status).toBe(200);
    expect(v1.headers.get("x-request-id")).toBe("bulk-v1.req-7");
    const v2 = await svc.get("/v2/bulk", {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json", "x-request-id": "not valid!" },
      body: JSON.stringify({ urls: ["https://example.com/rid-3"] }),
    });
    expect(v2.status).toBe(200);
    const generated = v2.headers.get("x-request-id")!;
    expect(generated).toMatch(/^[0-9a-f]{10}-[0-9a-z]+$/);

    const ids = [((await v1.json()) as { bulk_id: string }).bulk_id, ((await v2.json()) as { bulk_id: string }).bulk_id];
    const jobs = await svc.prisma.bulkJob.findMany({ where: { id: { in: ids } }, select: { id: true, requestId: true } });
    expect(Object.fromEntries(jobs.map((job) => [job.id, job.requestId]))).toEqual({ [ids[0]!]: "bulk-v1.req-7", [ids[1]!]: generated });

    const counted = (bulkId: string) => lines.filter((line) => line.event === "bulk_url" && line.bulk_id === bulkId && line.outcome === "done");
    await expect.poll(() => counted(ids[0]!).length + counted(ids[1]!).length, { timeout: 15_000 }).toBe(3);
    for (const line of counted(ids[0]!)) expect(line.request_id).toBe("bulk-v1.req-7");
    for (const line of counted(ids[1]!)) expect(line.request_id).toBe(generated);
    expect(lines.find((line) => line.event === "bulk_submitted" && line.bulk_id === ids[0])).toMatchObject({ request_id: "bulk-v1.req-7", urls: 2 });
  });
});
