import { randomBytes } from "node:crypto";
import type { PrismaClient } from "../db/prisma.ts";
import { MAX_LABEL, MAX_USER_AGENT, networkOf, type AuditSource } from "./actor.ts";
import { auditChangeSchema, type AuditChange } from "./catalogue.ts";
import { redactSecrets } from "./redaction.ts";

/** The audit table as a transaction sees it: recordAudit writes with whatever the caller's change writes. */
export type AuditWriter = Pick<PrismaClient, "auditEvent">;

/** What one event says: the account it belongs to, who did it from where and when, and what changed. */
export type AuditEntry = AuditSource & { accountId: string } & AuditChange;

/** The JSON of `changes` is small by construction (bounded schemas); this is the last bound. */
export const MAX_CHANGES_BYTES = 4096;

/** `ae_` and 20 random characters; ids only break ties between events of one millisecond. */
const newAuditId = () => `ae_${randomBytes(15).toString("base64url")}`;

/**
 * Writes one event with `tx`, the caller's transaction: it is recorded if and only if the change it describes
 * commits. An action outside the catalogue or changes outside its schema throw, and so roll the change back with
 * them: a change that cannot be recorded is not made. Anything shaped like a secret in `changes` (a user's
 * whitelist entry, address or key name may look like one) is redacted, never stored and never refused.
 */
export async function recordAudit(tx: AuditWriter, entry: AuditEntry): Promise<void> {
  const parsed = auditChangeSchema.parse({ action: entry.action, changes: entry.changes });
  const { action, changes } = redactedChange(parsed);
  const json = JSON.stringify(changes);
  if (Buffer.byteLength(json) > MAX_CHANGES_BYTES) throw new Error(`audit changes of ${action} over ${MAX_CHANGES_BYTES} bytes`);
  await tx.auditEvent.create({
    data: {
      id: newAuditId(),
      accountId: entry.accountId,
      time: new Date(entry.at),
      actorType: entry.actor.type,
      actorId: entry.actor.id,
      actorLabel: entry.actor.label?.slice(0, MAX_LABEL) ?? null,
      action,
      ip: networkOf(entry.client.address),
      userAgent: entry.client.userAgent?.slice(0, MAX_USER_AGENT) ?? null,
      changes: json,
    },
  });
}

/**
 * `change` with its secret-shaped parts redacted, still inside its schema (the log's readers parse it with the
 * same one): where `[redacted]` in place of a short `whsec_` makes a string outgrow its bound, or the event
 * outgrow MAX_CHANGES_BYTES, such a string is redacted whole.
 */
function redactedChange(change: AuditChange): AuditChange {
  const redacted = auditChangeSchema.safeParse(redactSecrets(change));
  if (redacted.success && Buffer.byteLength(JSON.stringify(redacted.data.changes)) <= MAX_CHANGES_BYTES) return redacted.data;
  return auditChangeSchema.parse(redactSecrets(change, true));
}
