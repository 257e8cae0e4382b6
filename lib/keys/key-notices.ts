import type { SecurityNotices } from "../accounts/security-notices.ts";
import type { KeyChange, WithinKeyWrite } from "./api-keys.ts";

/** The mail a roll or a revoke queues to the account, in the verb's own transaction. */
export function keyNotices(notices: SecurityNotices, now: number): { rolled: WithinKeyWrite; revoked: WithinKeyWrite } {
  const owner = (tx: Parameters<WithinKeyWrite>[0], change: KeyChange) =>
    tx.account.findUniqueOrThrow({ where: { id: change.accountId }, select: { id: true, email: true } });
  return {
    rolled: async (tx, change) => notices.keyRolled(tx, await owner(tx, change), { name: change.name, until: change.oldKeyUntil }, now),
    revoked: async (tx, change) => notices.keyRevoked(tx, await owner(tx, change), { name: change.name }, now),
  };
}
