import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ShareCountApi } from "./api-client.ts";

let received: http.IncomingHttpHeaders[] = [];
const server = http.createServer((req, res) => {
  received.push(req.headers);
  res.writeHead(200, { "content-type": "application/json" }).end("{}");
});
let base = "";

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe("the dashboard's API client", () => {
  it("sends the browser request's id to the API as X-Request-Id, and none when it has none", async () => {
    received = [];
    await new ShareCountApi(base, "token", undefined, async () => "browser-req-42").call(z.object({}), "/v1.0/quota");
    await new ShareCountApi(base, "token", undefined, async () => null).call(z.object({}), "/v1.0/quota");
    await new ShareCountApi(base, "token").call(z.object({}), "/v1.0/quota");
    expect(received.map((headers) => headers["x-request-id"])).toEqual(["browser-req-42", undefined, undefined]);
  });
});
