import type { ApiDeps } from "../../api-deps.ts";
import { send } from "../../http/respond.ts";
import { validQuery } from "../../http/validate.ts";
import { listEvents } from "../../../lib/alerts/event-list.ts";
import { eventsQuerySchema } from "../../../lib/v2/webhook-schemas.ts";
import { iso, v2Endpoint } from "./v2-endpoint.ts";

/** GET /v2/events: what happened to the account (what its webhooks and mail told), newest first, a page at a time. */
export const v2EventsHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, "account:read", async (account, { params }) => {
    const query = validQuery(eventsQuerySchema, params);
    const page = await listEvents(deps.alerts.alerts.events, account.id, query);
    return send(200, {
      data: page.events.map((event) => ({ id: event.id, type: event.type, created_at: iso(event.createdAt), data: event.data })),
      next_cursor: page.next,
    });
  });
