import type http from "node:http";
import { describe, expect, it } from "vitest";
import { mayReadMetrics } from "./metrics-access.ts";

function request(remoteAddress: string, authorization?: string): http.IncomingMessage {
  return { socket: { remoteAddress }, headers: authorization === undefined ? {} : { authorization } } as unknown as http.IncomingMessage;
}

describe("who may read /metrics", () => {
  it("without a token: loopback peers only, whatever they forward", () => {
    for (const address of ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"]) expect(mayReadMetrics(request(address), undefined)).toBe(true);
    for (const address of ["10.0.0.1", "192.168.1.20", "::ffff:10.0.0.1", "2001:db8::1", "fe80::1", "", "1127.0.0.1"])
      expect(mayReadMetrics(request(address), undefined)).toBe(false);
    const forwarded = { socket: { remoteAddress: "10.0.0.1" }, headers: { "x-forwarded-for": "127.0.0.1" } } as unknown as http.IncomingMessage;
    expect(mayReadMetrics(forwarded, undefined)).toBe(false);
    // A reverse proxy on this machine connects from loopback: what it forwards is not this machine's.
    for (const header of ["x-forwarded-for", "forwarded", "x-real-ip"]) {
      const proxied = { socket: { remoteAddress: "127.0.0.1" }, headers: { [header]: "203.0.113.9" } } as unknown as http.IncomingMessage;
      expect(mayReadMetrics(proxied, undefined)).toBe(false);
    }
  });

  it("with a token: whoever sends it as a bearer token, loopback included only with it", () => {
    const token = "s3cret-metrics-token";
    expect(mayReadMetrics(request("10.0.0.1", `Bearer ${token}`), token)).toBe(true);
    expect(mayReadMetrics(request("10.0.0.1", `bearer ${token}`), token)).toBe(true);
    expect(mayReadMetrics(request("127.0.0.1"), token)).toBe(false);
    for (const header of [`Bearer ${token}x`, `Bearer ${token.slice(0, -1)}`, token, `Basic ${token}`, "Bearer ", ""])
      expect(mayReadMetrics(request("127.0.0.1", header), token)).toBe(false);
  });
});
