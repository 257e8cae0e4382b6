import ipaddr from "ipaddr.js";

/**
 * Who did it. Today an account is also its one signed-in user; with teams a user acts on accounts it is a
 * member of, so the user's id and address are kept apart from the account's.
 */
export type AuditActor =
  /** A signed-in user: their id and their address at that time. */
  | { type: "user"; id: string; label: string }
  /** A request with an API key: its id once keys have ids (null before). */
  | { type: "key"; id: string | null; label: string }
  /** The admin command line. */
  | { type: "system"; id: null; label: string }
  /** Nobody signed in: a failed sign-in to the account. */
  | { type: "anonymous"; id: null; label: null };

export { ACTOR_TYPES, type ActorType } from "./actor-types.ts";

export const userActor = (user: { id: string; email: string }): AuditActor => ({ type: "user", id: user.id, label: user.email });
export const keyActor = (key: { id: string | null; name?: string } = { id: null }): AuditActor => ({ type: "key", id: key.id, label: key.name ?? "API key" });
export const SYSTEM_ACTOR: AuditActor = { type: "system", id: null, label: "admin command line" };
export const ANONYMOUS_ACTOR: AuditActor = { type: "anonymous", id: null, label: null };

/** Where the request came from, as the request told it. */
export interface AuditClient {
  address: string | null;
  userAgent: string | null;
}

export const NO_CLIENT: AuditClient = { address: null, userAgent: null };

/** Everything an event needs besides what changed: who, from where, when. */
export interface AuditSource {
  actor: AuditActor;
  client: AuditClient;
  at: number;
}

export const MAX_USER_AGENT = 300;
export const MAX_LABEL = 320;

/**
 * The network an address is in: IPv4 /24, IPv6 /48. Enough to tell "my office" from "somewhere else", without
 * keeping for a year, readable by every member, where one person was (see the README's Audit log section).
 */
export function networkOf(address: string | null): string | null {
  if (!address || !ipaddr.isValid(address)) return null;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (parsed.kind() === "ipv4") {
    const [a, b, c] = (parsed as ipaddr.IPv4).octets;
    return `${a}.${b}.${c}.0/24`;
  }
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 3);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0, 0]).toString()}/48`;
}

/** The admin command line's changes: no client, at `at`. */
export const systemSource = (at: number): AuditSource => ({ actor: SYSTEM_ACTOR, client: NO_CLIENT, at });
