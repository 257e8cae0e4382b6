import { z } from "zod";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";
import { auditFiltersSchema } from "@/dashboard/client/audit/audit-filters";
import { auditPageSchema, type AuditPage } from "@/dashboard/client/audit/audit-answers";
import { dashboard } from "@/dashboard/server/context";

const DAY_MS = 86_400_000;

const input = auditFiltersSchema.extend({ cursor: z.string().max(200).optional() });

/** A page of the account's audit log through GET /v2/audit; the range's start is computed here, on the server's clock. */
export const GET = signedInEndpoint({ need: "read", input }, async ({ api, input }): Promise<AuditPage> => {
  const query = new URLSearchParams({ limit: "50" });
  if (input.action) query.set("action", input.action);
  if (input.actor) query.set("actor_type", input.actor);
  if (input.days) query.set("from", new Date(dashboard().clock.now() - input.days * DAY_MS).toISOString());
  if (input.cursor) query.set("cursor", input.cursor);
  return (await (await api()).call(auditPageSchema, `/v2/audit?${query}`)).body;
});
