import type http from "node:http";
import net from "node:net";
import ipaddr from "ipaddr.js";

/**
 * The header the dashboard's server sets to the client's address, replacing any a client sent (see
 * dashboard/server/next-server.ts); sign-in rate limits key on it.
 */
export const CLIENT_IP_HEADER = "x-sharecount-client-ip";

/** `10.0.0.5` and `::ffff:10.0.0.5` are the same client. */
function plain(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1]! : address;
}

/** Whether `entry` is an IP address or a CIDR range (TRUSTED_PROXIES). */
export function isAddressOrRange(entry: string): boolean {
  const [address, bits, extra] = entry.split("/");
  const family = net.isIP(address ?? "");
  if (family === 0 || extra !== undefined) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * How to tell a request's client address: the socket's, unless it is one of the trusted proxies
 * (TRUSTED_PROXIES: the load balancers in front of the dashboard); then the last X-Forwarded-For address
 * that is not a trusted proxy. A client can put anything in X-Forwarded-For, so only what trusted proxies
 * appended counts.
 */
export function clientAddressResolver(trustedProxies: string[]): (req: Pick<http.IncomingMessage, "headers" | "socket">) => string {
  const trusted = new net.BlockList();
  for (const entry of trustedProxies) {
    const [address, bits] = entry.split("/") as [string, string | undefined];
    const type = net.isIP(address) === 6 ? "ipv6" : "ipv4";
    if (bits === undefined) trusted.addAddress(address, type);
    else trusted.addSubnet(address, Number(bits), type);
  }
  const isTrusted = (address: string) => {
    const family = net.isIP(address);
    return family !== 0 && trusted.check(address, family === 6 ? "ipv6" : "ipv4");
  };
  return (req) => {
    const socket = plain(req.socket.remoteAddress ?? "unknown");
    if (trustedProxies.length === 0 || !isTrusted(socket)) return socket;
    const header = req.headers["x-forwarded-for"];
    const hops = (Array.isArray(header) ? header.join(",") : (header ?? ""))
      .split(",")
      .map((hop) => plain(hop.trim()))
      .filter(Boolean);
    let address = socket;
    for (let i = hops.length - 1; i >= 0; i--) {
      address = hops[i]!;
      if (!isTrusted(address)) return address;
    }
    return address;
  };
}

/**
 * What a per-address rate limit counts a client as: its address, or for IPv6 its /64, which one subscriber
 * usually holds whole (rotating through it must not give a fresh limit for each address).
 */
export function limitKeyOf(address: string): string {
  if (!ipaddr.IPv6.isValid(address)) return address;
  const v6 = ipaddr.IPv6.parse(address);
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return `${v6.parts.slice(0, 4).map((part) => part.toString(16)).join(":")}::/64`;
}
