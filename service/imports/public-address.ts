import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { publicHost } from "../../lib/urls/public-host.ts";

/** IPv6's global unicast block: ipaddr.js counts the unassigned rest (`4000::1`, `::127.0.0.1`) as unicast too. */
const IPV6_GLOBAL_UNICAST = ipaddr.parseCIDR("2000::/3");

/** The rule of lib/urls/public-host.ts (its `publicIp` is not exported), so the two cannot disagree. */
function publicIp(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (address.kind() === "ipv6") {
    const v6 = address as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return publicIp(v6.toIPv4Address());
    if (!v6.match(IPV6_GLOBAL_UNICAST)) return false;
  }
  return address.range() === "unicast";
}

/** Whether an IP address (as DNS or a URL gives it, IPv6 without brackets) may be connected to. */
export function isPublicAddress(address: string): boolean {
  return isIP(address) !== 0 && ipaddr.isValid(address) && publicIp(ipaddr.parse(address));
}

export interface AddressPolicy {
  allowPrivateHosts: boolean;
  /** Addresses let through although not public: a loopback test server standing in for a public host. */
  alsoPublic?: ReadonlySet<string>;
}

export const addressAllowed = (address: string, policy: AddressPolicy) =>
  policy.allowPrivateHosts || isPublicAddress(address) || (policy.alsoPublic?.has(address) ?? false);

/**
 * Why a URL's host may not be connected to, or null. IP literals are judged here because no DNS lookup (and
 * so no connect-time check) happens for them; names by the service's public-host rule (localhost, .internal,
 * single labels…), their addresses again when the connection resolves them.
 */
export function hostRefusal(hostname: string, policy: AddressPolicy): string | null {
  if (policy.allowPrivateHosts) return null;
  const bare = hostname.replace(/^\[(.*)\]$/, "$1");
  if (isIP(bare) !== 0) {
    return addressAllowed(bare, policy) ? null : `${bare} is a loopback, private, link-local or reserved address, and only public hosts can be read`;
  }
  const verdict = publicHost(hostname.replace(/\.$/, ""));
  return verdict.ok ? null : verdict.reason;
}
