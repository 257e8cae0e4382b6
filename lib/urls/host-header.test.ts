import { describe, expect, it } from "vitest";
import { isHostHeader } from "./host-header.ts";

describe("a Host header", () => {
  const hosts = ["example.com", "example.com:8080", "127.0.0.1:3000", "[::1]:3000", "localhost", "bücher.de"];
  const notHosts = ["a b", "[::1", "evil.example/path", "user@evil.example", "a.example, b.example", "example.com:99999", "1.2.3.4.5", "xn--zz.com", "a?b", "a#b"];

  it.each(hosts)("%s is one", (value) => expect(isHostHeader(value)).toBe(true));
  it.each(notHosts)("%j is not", (value) => expect(isHostHeader(value)).toBe(false));

  it("keeps its verdicts when asked again, also after more distinct values than it remembers", () => {
    for (let i = 0; i < 1000; i++) expect(isHostHeader(`host-${i}.example:${i}`)).toBe(true);
    for (const value of hosts) expect(isHostHeader(value)).toBe(true);
    for (const value of notHosts) expect(isHostHeader(value)).toBe(false);
  });
});
