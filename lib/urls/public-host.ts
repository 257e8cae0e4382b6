import ipaddr from "ipaddr.js";
import { toUnicode } from "tr46";

/**
 * Which hosts are public: what a share counter may be asked about and a whitelist may name. A host as the URL
 * parser gives it (lowercase, punycode, IPv4 in dotted decimal, IPv6 in brackets) is public when it is a
 * public unicast IP address or a dotted name outside the special-use names that never resolve on the
 * internet. Every spelling of loopback, private, link-local and unspecified addresses (`0x7f.1`, `2130706433`,
 * `[::ffff:127.0.0.1]`, …) reaches here already normalized by the parser, and is refused. A public name that
 * resolves to a private address cannot be told apart without DNS: what fetches a user's URL resolves it first.
 *
 * The host is checked character by character rather than trusted to the parser, and its international labels
 * by one UTS #46 implementation (tr46) wherever this runs: browsers' URL parsers and Node's disagree at the
 * edges (Chromium keeps `exa mple.com` as `exa%20mple.com` and takes `xn--zz.com`; Node takes a label of
 * Arabic-Indic digits, which the Bidi rule refuses), and the dashboard's pre-check must agree with the API.
 */

export type HostVerdict = { ok: true } | { ok: false; reason: string };

/**
 * RFC 6761 (localhost, invalid, test, example: the name `example`, not example.com, which resolves), RFC 6762
 * (local), RFC 7686 (onion), RFC 9476 (alt), all of arpa (home.arpa of RFC 8375, and the reverse-lookup zones),
 * ICANN's internal, and localdomain.
 */
const SPECIAL_USE = ["localhost", "local", "localdomain", "internal", "arpa", "invalid", "test", "example", "onion", "alt"];

const LABEL = /^[a-z0-9_-]{1,63}$/;
const MAX_HOST_LENGTH = 253;
/** The WHATWG "ends in a number" rule: such a host is read as an IPv4 address, or is no host at all. */
const NUMERIC_LABEL = /^(?:\d+|0x[0-9a-f]*)$/;

/** The WHATWG URL standard's domain-to-ASCII settings, read back: what a valid name decodes under. */
export const IDNA = { checkBidi: true, checkJoiners: true, checkHyphens: false, useSTD3ASCIIRules: false, transitionalProcessing: false };

const NOT_PUBLIC = "the URL must name a public host (such as example.com), not localhost, a private network or a loopback, link-local or reserved address";

/** IPv6's global unicast block: ipaddr.js counts the unassigned rest (`4000::1`, `::127.0.0.1`) as unicast too. */
const IPV6_GLOBAL_UNICAST = ipaddr.parseCIDR("2000::/3");

/** Whether an address is public unicast: also what fetches of user-chosen URLs connect to (service/imports). */
export function publicIp(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (address.kind() === "ipv6") {
    const v6 = address as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return publicIp(v6.toIPv4Address());
    if (!v6.match(IPV6_GLOBAL_UNICAST)) return false;
  }
  return address.range() === "unicast";
}

/** `host`: a URL's hostname without its trailing dot (the root's dot: `a.com.` is `a.com`). */
export function publicHost(host: string): HostVerdict {
  const bracketed = /^\[(.+)\]$/.exec(host);
  if (bracketed) {
    return ipaddr.IPv6.isValid(bracketed[1]!) && publicIp(ipaddr.IPv6.parse(bracketed[1]!)) ? { ok: true } : { ok: false, reason: NOT_PUBLIC };
  }
  const labels = host.split(".");
  if (labels.includes("")) return { ok: false, reason: "the URL's host name has an empty label (two dots in a row, or a leading dot)" };
  if (NUMERIC_LABEL.test(labels.at(-1)!)) {
    return ipaddr.IPv4.isValidFourPartDecimal(host) && publicIp(ipaddr.IPv4.parse(host)) ? { ok: true } : { ok: false, reason: NOT_PUBLIC };
  }
  if (host.length > MAX_HOST_LENGTH || !labels.every((label) => LABEL.test(label))) {
    return { ok: false, reason: "the URL's host name may hold only letters, digits, hyphens and dots" };
  }
  if (labels.length < 2 || SPECIAL_USE.some((name) => host === name || host.endsWith(`.${name}`))) return { ok: false, reason: NOT_PUBLIC };
  if (labels.some((label) => label.startsWith("xn--")) && toUnicode(host, IDNA).error) {
    return { ok: false, reason: "the URL's host name is not a valid international domain name" };
  }
  return { ok: true };
}
