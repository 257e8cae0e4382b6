import { z } from "zod";
import { ACTOR_TYPES } from "../../../lib/audit/actor-types.ts";
import { AUDIT_ACTIONS, type AuditAction } from "../../../lib/audit/catalogue.ts";

/** The Audit page's filters, as its address carries them (`?action=&actor=&days=`). Runs in the browser. */

export const ACTION_LABELS: Partial<Record<AuditAction, string>> = {
  "whitelist.changed": "Whitelist changed",
  "plan.changed": "Plan changed",
  "webhook.created": "Webhook added",
  "webhook.updated": "Webhook changed",
  "webhook.deleted": "Webhook deleted",
  "password.changed": "Password changed",
  "email.changed": "Email changed",
  sign_in: "Signed in",
  sign_in_failed: "Sign-in failed",
  "key.created": "Key created",
  "key.rolled": "Key rolled",
  "key.revoked": "Key revoked",
  "member.invited": "Member invited",
  "member.joined": "Member joined",
  "member.removed": "Member removed",
  "member.role_changed": "Member's role changed",
};

export const ACTOR_LABELS = { user: "A user", key: "An API key", system: "The command line", anonymous: "Nobody signed in" } as const;

export const DAY_PRESETS = [1, 7, 30, 90, 365] as const;

const optional = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (value === "" || value === null ? undefined : value), schema.optional());

export const auditFiltersSchema = z.object({
  action: optional(z.enum(AUDIT_ACTIONS)),
  actor: optional(z.enum(ACTOR_TYPES)),
  days: optional(z.coerce.number().refine((days) => (DAY_PRESETS as readonly number[]).includes(days), `days must be one of ${DAY_PRESETS.join(", ")}`)),
});

export type AuditFilters = z.infer<typeof auditFiltersSchema>;

/** The filters in `params`; anything this page would not have written is dropped, not an error. */
export function auditFiltersFrom(params: URLSearchParams): AuditFilters {
  const { shape } = auditFiltersSchema;
  const one = <T>(schema: z.ZodType<T>, name: string): T | undefined => {
    const parsed = schema.safeParse(params.get(name));
    return parsed.success ? parsed.data : undefined;
  };
  return { action: one(shape.action, "action"), actor: one(shape.actor, "actor"), days: one(shape.days, "days") };
}

/** The filters as search parameters, without the empty ones. */
export function auditFilterParams(filters: AuditFilters): Record<string, string> {
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined).map(([name, value]) => [name, String(value)]));
}
