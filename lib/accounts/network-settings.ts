import type { PrismaClient } from "../db/prisma.ts";
import { networkListOf } from "../store/accounts.ts";
import type { NetworkId } from "../counts/all-networks.ts";

/**
 * Which networks an account shows and asks (part of the account table's owner): API v2 asks these when a
 * request names none, and the dashboard shows these. Null: every network the service asks, including
 * networks enabled later.
 */
export class NetworkSettings {
  constructor(private readonly prisma: PrismaClient) {}

  async of(accountId: string): Promise<NetworkId[] | null> {
    const account = await this.prisma.account.findUniqueOrThrow({ where: { id: accountId }, select: { networks: true } });
    return networkListOf(account.networks);
  }

  /** `available`: the networks the service asks; choosing all of them stores null (new ones then show too). */
  async set(accountId: string, networks: readonly NetworkId[], available: readonly NetworkId[]): Promise<NetworkId[] | null> {
    const chosen = available.filter((id) => networks.includes(id));
    const stored = chosen.length === available.length ? null : chosen;
    await this.prisma.account.update({ where: { id: accountId }, data: { networks: stored === null ? null : stored.join(",") } });
    return stored;
  }
}
