import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../support/service.ts";

let svc: TestService;
let key: string;

beforeAll(async () => {
  svc = await startTestService();
  key = (await svc.account("business")).apiKey;
});
afterAll(() => svc.close());
beforeEach(() => svc.resetSandbox());

describe("single-URL counts", () => {
  it("answers the v1.0 count object with every v1.0 key", async () => {
    const res = await svc.get(`/v1.0/?url=${encodeURIComponent("https://example.com/a")}&apikey=${key}`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(Object.keys(body)).toEqual(["StumbleUpon", "Pinterest", "LinkedIn", "Facebook", "GooglePlusOne"]);
  });
});
