import { z } from "zod";
import { ACTOR_TYPES } from "../../../lib/audit/actor-types.ts";
import { auditChangeSchema } from "../../../lib/audit/catalogue.ts";

/** What the dashboard's audit route answers (GET /v2/audit's page, checked again). Runs in the browser. */
export const auditEventAnswerSchema = z
  .object({
    id: z.string(),
    time: z.string(),
    actor: z.object({ type: z.enum(ACTOR_TYPES), id: z.string().nullable(), label: z.string().nullable() }),
    ip: z.string().nullable(),
    user_agent: z.string().nullable(),
  })
  .and(auditChangeSchema);

export const auditPageSchema = z.object({ data: z.array(auditEventAnswerSchema), next_cursor: z.string().nullable() });

export type AuditEventAnswer = z.infer<typeof auditEventAnswerSchema>;
export type AuditPage = z.infer<typeof auditPageSchema>;
