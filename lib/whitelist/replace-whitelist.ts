import type { AuditSource } from "../audit/actor.ts";
import { DOMAINS_IN_EVENT } from "../audit/catalogue.ts";
import { recordAudit } from "../audit/record.ts";
import type { PrismaClient } from "../db/prisma.ts";

type WhitelistWriter = Pick<PrismaClient, "account" | "whitelistDomain" | "auditEvent">;

/**
 * Replaces an account's whitelist (entries already in their normal form) and whether it is enforced, and
 * records what changed in the same transaction: the counts before and after, the entries added and removed
 * (the first few of each, and how many), and enforcement. Nothing changed: nothing is recorded.
 */
export async function replaceWhitelist(tx: WhitelistWriter, accountId: string, domains: ReadonlySet<string>, enabled: boolean, audit: AuditSource): Promise<void> {
  const before = await tx.account.findUniqueOrThrow({ where: { id: accountId }, select: { whitelistEnabled: true, whitelist: { select: { domain: true } } } });
  const old = new Set(before.whitelist.map((entry) => entry.domain));
  await tx.whitelistDomain.deleteMany({ where: { accountId } });
  await tx.whitelistDomain.createMany({ data: [...domains].map((domain) => ({ accountId, domain })) });
  await tx.account.update({ where: { id: accountId }, data: { whitelistEnabled: enabled } });
  const added = [...domains].filter((domain) => !old.has(domain)).sort();
  const removed = [...old].filter((domain) => !domains.has(domain)).sort();
  if (added.length === 0 && removed.length === 0 && before.whitelistEnabled === enabled) return;
  const changes = {
    before: old.size,
    after: domains.size,
    added: added.slice(0, DOMAINS_IN_EVENT),
    removed: removed.slice(0, DOMAINS_IN_EVENT),
    added_count: added.length,
    removed_count: removed.length,
    enabled_before: before.whitelistEnabled,
    enabled,
  };
  await recordAudit(tx, { accountId, ...audit, action: "whitelist.changed", changes });
}
