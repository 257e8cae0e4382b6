import type { PrismaClient } from "../db/prisma.ts";

/**
 * An account's tracked-URL settings (part of the account table's owner): whether its tracked URLs count
 * their http/https × www variants. A change applies at each URL's next refresh.
 */
export class TrackingSettings {
  constructor(private readonly prisma: PrismaClient) {}

  async of(accountId: string): Promise<{ countVariants: boolean }> {
    const account = await this.prisma.account.findUniqueOrThrow({ where: { id: accountId }, select: { countVariants: true } });
    return { countVariants: account.countVariants };
  }

  async setCountVariants(accountId: string, countVariants: boolean): Promise<{ countVariants: boolean }> {
    await this.prisma.account.update({ where: { id: accountId }, data: { countVariants } });
    return { countVariants };
  }
}
