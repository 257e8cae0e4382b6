import { describe, expect, it } from "vitest";
import { clientAddressResolver, limitKeyOf, isAddressOrRange } from "./client-ip.ts";

const request = (remoteAddress: string, forwardedFor?: string) => ({
  socket: { remoteAddress } as never,
  headers: forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor },
});

describe("client address", () => {
  it("is the socket's address when no proxy is trusted, whatever X-Forwarded-For says", () => {
    const resolve = clientAddressResolver([]);
    expect(resolve(request("203.0.113.7", "198.51.100.1"))).toBe("203.0.113.7");
    expect(resolve(request("::ffff:203.0.113.7"))).toBe("203.0.113.7");
  });

  it("behind trusted proxies, is the last forwarded address that is not one of them", () => {
    const resolve = clientAddressResolver(["10.0.0.0/8", "192.0.2.10"]);
    // The client forged the first entry; the load balancer appended the real one.
    expect(resolve(request("10.1.2.3", "6.6.6.6, 203.0.113.7"))).toBe("203.0.113.7");
    expect(resolve(request("::ffff:10.1.2.3", "203.0.113.7, 192.0.2.10"))).toBe("203.0.113.7");
    // Only trusted hops: the first one is as close to the client as we can tell.
    expect(resolve(request("10.1.2.3", "10.9.9.9"))).toBe("10.9.9.9");
    expect(resolve(request("10.1.2.3"))).toBe("10.1.2.3");
    // A request straight from a client: its X-Forwarded-For is not believed.
    expect(resolve(request("203.0.113.9", "10.1.1.1"))).toBe("203.0.113.9");
  });

  it("accepts IPv4 and IPv6 addresses and ranges in TRUSTED_PROXIES, and nothing else", () => {
    for (const entry of ["10.0.0.1", "10.0.0.0/8", "2001:db8::1", "2001:db8::/32"]) expect(isAddressOrRange(entry)).toBe(true);
    for (const entry of ["10.0.0.0/33", "2001:db8::/129", "example.com", "10.0.0.0/8/1", "10.0.0.0/x", ""]) {
      expect(isAddressOrRange(entry)).toBe(false);
    }
    const resolve = clientAddressResolver(["2001:db8::/32"]);
    expect(resolve(request("2001:db8::5", "2001:db8::9, 2a00:1450::1"))).toBe("2a00:1450::1");
  });
});

describe("limitKeyOf", () => {
  it("counts an IPv6 client by its /64, an IPv4 one (also IPv4-mapped) by its address", () => {
    expect(limitKeyOf("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(limitKeyOf("2001:db8:1:2:bbbb:cccc:dddd:eeee")).toBe("2001:db8:1:2::/64");
    expect(limitKeyOf("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(limitKeyOf("203.0.113.7")).toBe("203.0.113.7");
    expect(limitKeyOf("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(limitKeyOf("unknown")).toBe("unknown");
  });
});
