import { z } from "zod";

/**
 * Every action the audit log records, one schema each: what an event carries is typed and bounded, and an
 * action without a schema cannot be written. Runs in the browser too (the Audit page reads `changes` with it).
 */

const host = z.string().max(253);
const domain = z.string().max(260);
/** A few domains are shown as they were; past that, the counts still say how many. */
const DOMAINS_SHOWN = 20;
const domains = z.array(domain).max(DOMAINS_SHOWN);
const count = z.number().int().min(0).max(1_000_000);
const eventTypes = z.array(z.string().max(40)).max(20);
const email = z.string().max(320);
const keyId = z.string().max(64);
const keyName = z.string().max(100);
const scopes = z.array(z.string().max(40)).max(30);
const role = z.enum(["owner", "admin", "developer", "viewer"]);

export const SIGN_IN_METHODS = ["password", "github", "google", "passkey"] as const;
// A refusal by the rate limit checks no password and is not recorded: it would let anyone flood an account's log.
export const SIGN_IN_FAILURES = ["wrong_password", "no_password"] as const;

/** One action's event: its name and what changed. */
const event = <A extends string, C extends z.ZodType>(action: A, changes: C) => z.strictObject({ action: z.literal(action), changes });

/** An event's action and what changed, as recordAudit takes it and the log answers it. */
export const auditChangeSchema = z.discriminatedUnion("action", [
  event("whitelist.changed", z.strictObject({
    before: count,
    after: count,
    added: domains,
    removed: domains,
    added_count: count,
    removed_count: count,
    enabled_before: z.boolean(),
    enabled: z.boolean(),
  })),
  event("plan.changed", z.strictObject({ from: z.string().max(40), to: z.string().max(40) })),
  event("webhook.created", z.strictObject({ endpoint_id: keyId, host, events: eventTypes })),
  event("webhook.updated", z.strictObject({
    endpoint_id: keyId,
    host,
    events: eventTypes,
    fields: z.array(z.enum(["url", "events", "enabled", "description"])).max(4),
    enabled: z.boolean().optional(),
    host_before: host.optional(),
  })),
  event("webhook.deleted", z.strictObject({ endpoint_id: keyId, host, events: eventTypes })),
  event("password.changed", z.strictObject({ via: z.enum(["settings", "reset_link", "admin", "removed"]), other_sessions_ended: count })),
  event("email.changed", z.strictObject({ from: email, to: email })),
  event("sign_in", z.strictObject({ method: z.enum(SIGN_IN_METHODS) })),
  event("sign_in_failed", z.strictObject({ method: z.enum(SIGN_IN_METHODS), reason: z.enum(SIGN_IN_FAILURES) })),
  // Reserved for API keys and teams: their verbs record these in their own transactions.
  event("key.created", z.strictObject({ id: keyId, name: keyName, prefix: z.string().max(12).optional(), scopes, expires_at: z.string().max(40).nullable().optional() })),
  event("key.rolled", z.strictObject({ id: keyId, name: keyName, new_id: keyId.optional(), grace_seconds: count.optional() })),
  event("key.revoked", z.strictObject({ id: keyId, name: keyName })),
  event("member.invited", z.strictObject({ email, role })),
  event("member.joined", z.strictObject({ user_id: keyId, email, role })),
  event("member.removed", z.strictObject({ user_id: keyId, email })),
  event("member.role_changed", z.strictObject({ user_id: keyId, email, from: role, to: role })),
]);

export type AuditChange = z.output<typeof auditChangeSchema>;
export type AuditAction = AuditChange["action"];
export type AuditChanges<A extends AuditAction> = Extract<AuditChange, { action: A }>["changes"];
export const AUDIT_ACTIONS = auditChangeSchema.options.map((option) => option.shape.action.value) as AuditAction[];
export const DOMAINS_IN_EVENT = DOMAINS_SHOWN;

export const isAuditAction = (value: string): value is AuditAction => (AUDIT_ACTIONS as string[]).includes(value);
