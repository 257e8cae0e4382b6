import { describe, expect, it } from "vitest";
import { signInNetwork } from "./sign-in-devices.ts";

describe("signInNetwork", () => {
  it.each([
    ["203.0.113.7", "203.0.0.0/16"],
    ["203.0.250.1", "203.0.0.0/16"],
    ["::ffff:203.0.113.7", "203.0.0.0/16"],
    ["2001:db8:1234:5678::1", "2001:db8::/32"],
    ["2001:0db8:ffff::9", "2001:db8::/32"],
    ["::1", "0:0::/32"],
  ])("%s is on %s", (address, network) => {
    expect(signInNetwork(address)).toBe(network);
  });

  it("says so when the address is unknown", () => {
    expect(signInNetwork("")).toBe("an unknown network");
    expect(signInNetwork("unknown")).toBe("an unknown network");
  });
});
