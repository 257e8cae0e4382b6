import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpServer } from "./front-door.ts";
import { requestIdOf } from "./x-request-id.ts";

let seen: (string | undefined)[] = [];
const server = createHttpServer((req, res) => {
  seen.push(requestIdOf(req));
  res.end("ok");
});
let base = "";

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const idOf = async (sent?: string) => (await fetch(`${base}/x`, { headers: sent === undefined ? {} : { "x-request-id": sent } })).headers.get("x-request-id");

describe("X-Request-Id", () => {
  it("keeps a plain incoming id, echoes it and hands it to the listener", async () => {
    seen = [];
    for (const id of ["abc", "req_01.XYZ-9", "A-".repeat(32)]) expect(await idOf(id)).toBe(id);
    expect(seen).toEqual(["abc", "req_01.XYZ-9", "A-".repeat(32)]);
  });

  it("replaces a missing, long or odd one with a new id, a different one each time", async () => {
    seen = [];
    // A key-shaped id (40 hex digits) too: a client sending its key there would have it logged.
    const ids = await Promise.all([undefined, "", "a".repeat(65), "has space", "semi;colon", "ünï", "<script>", "0123456789abcdef0123456789ABCDEF01234567", "k0123456789abcdef0123456789abcdef01234567-x"].map(idOf));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{10}-[0-9a-z]+$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(seen).toEqual(ids);
  });

  it("is on answers the front door gives before any listener", async () => {
    // A backslash in the path is refused by the front door (fetch would turn it into a slash).
    const answer = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http.get({ host: "127.0.0.1", port: new URL(base).port, path: "/a\\b", headers: { "x-request-id": "bad-path-1" } }, resolve).on("error", reject),
    );
    answer.resume();
    expect(answer.statusCode).toBe(400);
    expect(answer.headers["x-request-id"]).toBe("bad-path-1");
  });
});
