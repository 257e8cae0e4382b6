import { promises as dns, type LookupAddress, type LookupOptions } from "node:dns";
import { Agent } from "undici";
import { addressAllowed, type AddressPolicy } from "./public-address.ts";

/** Every address a host name resolves to. */
export type HostLookup = (hostname: string) => Promise<readonly LookupAddress[]>;

const systemLookup: HostLookup = (hostname) => dns.lookup(hostname, { all: true });

/** The connection's host name resolved to an address that is not public. */
export class RefusedAddress extends Error {
  constructor(
    readonly hostname: string,
    readonly address: string,
  ) {
    super(`${hostname} resolves to ${address}`);
  }
}

/** The connection's host name did not resolve. */
export class HostNotFound extends Error {
  constructor(
    readonly hostname: string,
    readonly reason: string,
  ) {
    super(`${hostname}: ${reason}`);
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * An undici Agent whose connections resolve their host themselves and refuse to connect when any address is
 * not public. Checking at connect time, on the very addresses connected to, covers redirects and DNS
 * rebinding (a name that resolved to a public address when checked and to a private one when connected).
 * Node skips the lookup for IP literals: the fetcher checks those before connecting.
 */
export function createGuardedAgent(policy: AddressPolicy & { lookup?: HostLookup; connectTimeoutMs: number }): Agent {
  const resolve = policy.lookup ?? systemLookup;

  const admitted = async (hostname: string, family: number | undefined): Promise<LookupAddress[]> => {
    let addresses: readonly LookupAddress[];
    try {
      addresses = await resolve(hostname);
    } catch (error) {
      throw new HostNotFound(hostname, (error as NodeJS.ErrnoException).code ?? "lookup failed");
    }
    const refused = addresses.find((entry) => !addressAllowed(entry.address, policy));
    if (refused) throw new RefusedAddress(hostname, refused.address);
    const usable = addresses.filter((entry) => !family || entry.family === family);
    if (usable.length === 0) throw new HostNotFound(hostname, "ENOTFOUND");
    return usable;
  };

  // Node asks for every address (`all`) when it races IPv4 against IPv6, for one otherwise.
  const lookup = (hostname: string, options: LookupOptions, callback: LookupCallback) => {
    const family = typeof options.family === "number" ? options.family : undefined;
    admitted(hostname, family).then(
      (usable) => (options.all ? callback(null, usable) : callback(null, usable[0]!.address, usable[0]!.family)),
      (error: NodeJS.ErrnoException) => callback(error, ""),
    );
  };

  return new Agent({ connect: { lookup, timeout: policy.connectTimeoutMs } });
}
