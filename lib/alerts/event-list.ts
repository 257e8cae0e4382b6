import { WebhookError } from "../webhooks/webhook-errors.ts";
import type { EventType, StoredEvent } from "./alert-types.ts";
import type { EventStore } from "./event-store.ts";

/** A page of the account's events, newest first (GET /v2/events); a cursor that is none of its events is refused. */
export async function listEvents(
  events: EventStore,
  accountId: string,
  page: { type?: EventType; limit: number; cursor?: string },
): Promise<{ events: StoredEvent[]; next: string | null }> {
  if (page.cursor !== undefined && !(await events.get(accountId, page.cursor))) {
    throw new WebhookError("invalid_parameter", "cursor: not a next_cursor of this account's events.");
  }
  return events.list(accountId, page);
}
