import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { publicHost, publicIp } from "../urls/public-host.ts";

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
