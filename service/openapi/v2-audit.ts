import type { RouteConfig } from "@asteasolutions/zod-to-openapi";
import type { z } from "zod";
import { auditAnswerSchema, auditQuerySchema } from "../../lib/v2/audit-schemas.ts";
import { v2Refusals } from "./refusals.ts";

/** GET /v2/audit's path. */

const json = (schema: z.ZodType, description: string) => ({ description, content: { "application/json": { schema } } });

export function registerAuditPaths(path: (config: RouteConfig) => void, security: Record<string, string[]>[]): void {
  path({
    method: "get",
    path: "/v2/audit",
    tags: ["v2"],
    security,
    summary: "The audit log: who changed the account's whitelist, plan, webhooks, password or address, and its sign-ins, newest first, a page at a time (cursor)",
    description:
      "Each event names its actor (`user`, `key`, `system` for the admin command line, `anonymous` for a failed sign-in), the client's network and browser, and what changed. " +
      "Kept for AUDIT_LOG_DAYS (365 unless the operator sets it). Never a secret.",
    request: { query: auditQuerySchema },
    responses: {
      200: json(auditAnswerSchema, "A page"),
      ...v2Refusals({
        400: "`invalid_parameter`: an unknown action or actor_type, a from or to that is no ISO 8601 date-time or date, from after to, a limit out of 1 to 100, a cursor that is not this log's",
      }),
    },
  });
}
