import ipaddr from "ipaddr.js";
import type { PrismaClient } from "../db/prisma.ts";
import { isUniqueViolation } from "../db/unique-violation.ts";
import type { SecurityNotices } from "../accounts/security-notices.ts";
import { describeDevice } from "./user-agent.ts";

/**
 * The network a sign-in came from, coarse enough that a home or office changing addresses stays the same
 * network: an IPv4 address's /16, an IPv6 address's /32 (what an ISP usually hands out from, as a /16 is for
 * IPv4; a /48 or /64 would change with every mobile connection).
 */
export function signInNetwork(address: string): string {
  if (!ipaddr.isValid(address)) return "an unknown network";
  let parsed = ipaddr.parse(address);
  if (parsed instanceof ipaddr.IPv6 && parsed.isIPv4MappedAddress()) parsed = parsed.toIPv4Address();
  if (parsed instanceof ipaddr.IPv4) return `${parsed.octets.slice(0, 2).join(".")}.0.0/16`;
  return `${parsed.parts.slice(0, 2).map((part) => part.toString(16)).join(":")}::/32`;
}

/** `first`: the account's first recorded sign-in; `known`: a browser and network it signed in from before; `new`: neither. */
export type SignInKind = "first" | "known" | "new";

/**
 * The browsers an account signs in from (sign_in_device), to tell the account when one is new: its
 * user-agent family ("Chrome on Linux") and network. Best effort by nature: a browser update that changes
 * nothing in the family, or a VPN, goes unnoticed.
 */
export class SignInDevices {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly notices: SecurityNotices,
  ) {}

  /**
   * Records a sign-in and, when its browser and network are new to an account that has signed in before,
   * queues the notice in the same transaction. A new account has no usual browser: its first is only recorded.
   */
  async record(accountId: string, client: { userAgent: string | null; address: string }, now: number): Promise<SignInKind> {
    const browser = describeDevice(client.userAgent);
    const network = signInNetwork(client.address);
    const fingerprint = `${browser} / ${network}`;
    try {
      return await this.prisma.$transaction(async (tx): Promise<SignInKind> => {
        if (await tx.signInDevice.findUnique({ where: { accountId_fingerprint: { accountId, fingerprint } } })) return "known";
        const before = await tx.signInDevice.count({ where: { accountId } });
        const { account } = await tx.signInDevice.create({
          data: { accountId, fingerprint, firstSeenAt: new Date(now) },
          select: { account: { select: { id: true, email: true } } },
        });
        if (before === 0) return "first";
        await this.notices.newSignIn(tx, account, { browser, network }, now);
        return "new";
      });
    } catch (error) {
      // The same browser signing in twice at once: the other sign-in recorded it, and sent any notice.
      if (isUniqueViolation(error)) return "known";
      throw error;
    }
  }
}
