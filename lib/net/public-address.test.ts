import { describe, expect, it } from "vitest";
import { hostRefusal, isPublicAddress } from "./public-address.ts";

describe("isPublicAddress", () => {
  it.each(["93.184.215.14", "8.8.8.8", "2606:4700::1", "2a00:1450:4001::200e", "::ffff:8.8.8.8"])("takes %s", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "192.168.0.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "255.255.255.255",
    "224.0.0.1",
    "::1",
    "::",
    "fe80::1",
    "fc00::1",
    "fd12:3456::1",
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.1",
    "::127.0.0.1",
    "4000::1",
    "2001:db8::1",
    "ff02::1",
    "example.com",
    "",
  ])("refuses %s", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});

describe("hostRefusal", () => {
  it("lets public hosts through, and every host when private ones are allowed", () => {
    expect(hostRefusal("example.com", { allowPrivateHosts: false })).toBeNull();
    expect(hostRefusal("[2606:4700::1]", { allowPrivateHosts: false })).toBeNull();
    expect(hostRefusal("localhost", { allowPrivateHosts: true })).toBeNull();
    expect(hostRefusal("127.0.0.1", { allowPrivateHosts: false, alsoPublic: new Set(["127.0.0.1"]) })).toBeNull();
  });

  it("refuses private literals and special-use names", () => {
    expect(hostRefusal("[::1]", { allowPrivateHosts: false })).toContain("::1 is a loopback, private, link-local or reserved address");
    expect(hostRefusal("localhost", { allowPrivateHosts: false })).toContain("not localhost");
    expect(hostRefusal("metadata.google.internal", { allowPrivateHosts: false })).toContain("public host");
    expect(hostRefusal("localhost.", { allowPrivateHosts: false })).toContain("public host");
  });
});
