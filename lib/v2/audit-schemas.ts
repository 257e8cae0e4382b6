import { z } from "zod";
import { ACTOR_TYPES } from "../audit/actor-types.ts";
import { AUDIT_ACTIONS, auditChangeSchema } from "../audit/catalogue.ts";
import { apikey, queryInteger } from "./schemas.ts";

/** GET /v2/audit: the query and the answer. */

/** A moment: an ISO 8601 date-time with its offset, or a date (its UTC midnight). */
const moment = (what: string) =>
  z
    .union([z.iso.datetime({ offset: true }), z.iso.date()], { error: () => `${what} must be an ISO 8601 date-time (2026-11-27T08:00:00Z) or date (2026-11-27)` })
    .transform((value) => Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value))
    .optional();

export const auditQuerySchema = z
  .strictObject({
    apikey,
    action: z.enum(AUDIT_ACTIONS, { error: () => `action must be one of ${AUDIT_ACTIONS.join(", ")}` }).optional().meta({ description: "Only events of this action" }),
    actor_type: z.enum(ACTOR_TYPES, { error: () => `actor_type must be one of ${ACTOR_TYPES.join(", ")}` }).optional().meta({ description: "Only events by this kind of actor" }),
    from: moment("from").meta({ description: "Events at or after this time (ISO 8601 date-time or date)" }),
    to: moment("to").meta({ description: "Events before this time (ISO 8601 date-time or date)" }),
    limit: queryInteger(1, 100).default(50).meta({ description: "At most this many (1 to 100, default 50)" }),
    cursor: z.string().max(200).optional().meta({ description: "next_cursor of the previous page" }),
  })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, { message: "from must not be after to", path: ["from"] });

export const auditEventSchema = z
  .object({
    id: z.string(),
    time: z.iso.datetime(),
    actor: z.object({
      type: z.enum(ACTOR_TYPES),
      id: z.string().nullable().meta({ description: "The user's id or the API key's id (null for the system, an anonymous actor, or a key without an id)" }),
      label: z.string().nullable().meta({ description: "Who it was at the time: the user's address, the key's name" }),
    }),
    ip: z.string().nullable().meta({ description: "The client's network (IPv4 /24, IPv6 /48), not its address" }),
    user_agent: z.string().nullable(),
  })
  .and(auditChangeSchema)
  .meta({ id: "AuditEvent", description: "One change to the account or sign-in, with who made it and what changed (never a secret)" });

export const auditAnswerSchema = z
  .object({ data: z.array(auditEventSchema), next_cursor: z.string().nullable() })
  .meta({ id: "AuditLog", description: "Newest first" });
