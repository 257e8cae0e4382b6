import type { ApiDeps } from "../../api-deps.ts";
import { ApiError } from "../../http/errors.ts";
import { send } from "../../http/respond.ts";
import { validQuery } from "../../http/validate.ts";
import { decodeAuditCursor, encodeAuditCursor } from "../../../lib/audit/audit-cursor.ts";
import { auditQuerySchema } from "../../../lib/v2/audit-schemas.ts";
import { iso, v2Endpoint } from "./v2-endpoint.ts";

/** GET /v2/audit: who changed what on the account, and its sign-ins, newest first, a page at a time. */
export const v2AuditHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, "account:read", async (account, { params }) => {
    const query = validQuery(auditQuerySchema, params);
    const after = query.cursor === undefined ? undefined : decodeAuditCursor(query.cursor);
    if (after === null) throw new ApiError("invalid_parameter", 400, "cursor: not a next_cursor of this audit log.");
    const filter = { action: query.action, actorType: query.actor_type, from: query.from, to: query.to };
    const rows = await deps.audit.store.page(account.id, filter, query.limit + 1, after);
    const events = rows.slice(0, query.limit);
    return send(200, {
      data: events.map((event) => ({
        id: event.id,
        time: iso(event.at),
        actor: event.actor,
        ip: event.ip,
        user_agent: event.userAgent,
        action: event.action,
        changes: event.changes,
      })),
      next_cursor: rows.length > query.limit ? encodeAuditCursor({ at: events.at(-1)!.at, id: events.at(-1)!.id }) : null,
    });
  });
