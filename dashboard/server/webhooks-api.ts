import "server-only";
import { z } from "zod";
import { EVENT_TYPES, type EventType } from "../../lib/alerts/alert-types.ts";
import type { ShareCountApi } from "./api-client.ts";
import {
  createdEndpointSchema,
  deliveryListSchema,
  endpointListSchema,
  eventPageSchema,
  rolledSecretSchema,
  testSentSchema,
  type WebhookFormat,
} from "../client/alerts/webhook-answers.ts";
import type { AlertMark } from "../client/alerts/marks.ts";

const json = (method: "POST" | "PATCH", body: unknown): RequestInit => ({ method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const endpointPath = (id: string) => `/v2/webhooks/${encodeURIComponent(id)}`;

/** The account's webhook endpoints and their deliveries, through API v2 with its key. */
export function webhooksOf(api: ShareCountApi) {
  return {
    list: async () => (await api.call(endpointListSchema, "/v2/webhooks")).body.data,
    create: async (endpoint: { url: string; events: EventType[]; format: WebhookFormat; description?: string }) =>
      (await api.call(createdEndpointSchema, "/v2/webhooks", json("POST", endpoint))).body,
    update: async (id: string, change: { enabled?: boolean; events?: EventType[]; url?: string; description?: string }) => {
      await api.call(z.unknown(), endpointPath(id), json("PATCH", change));
    },
    remove: async (id: string) => {
      await api.call(z.unknown(), endpointPath(id), { method: "DELETE" });
    },
    rollSecret: async (id: string) => (await api.call(rolledSecretSchema, `${endpointPath(id)}/secret`, json("POST", {}))).body,
    test: async (id: string) => (await api.call(testSentSchema, `${endpointPath(id)}/test`, json("POST", {}))).body,
    deliveries: async (id: string) => (await api.call(deliveryListSchema, `${endpointPath(id)}/deliveries?limit=50`)).body.data,
    retry: async (id: string, deliveryId: string) => {
      await api.call(z.unknown(), `${endpointPath(id)}/deliveries/${encodeURIComponent(deliveryId)}/retry`, json("POST", {}));
    },
  };
}

/** How many pages of events one mark request reads at most (the newest come first). */
const MAX_EVENT_PAGES = 10;
const EVENT_PAGE_SIZE = 100;

/**
 * The account's spike and milestone events since `since`, of one URL when `url` is given, as chart marks.
 * GET /v2/events filters by type only: the URL is matched here, on the data each event carries.
 */
export async function alertMarks(api: ShareCountApi, query: { types: EventType[]; since: number; url?: string }): Promise<AlertMark[]> {
  const marks: AlertMark[] = [];
  for (const type of query.types) {
    let cursor: string | null | undefined;
    for (let page = 0; page < MAX_EVENT_PAGES; page++) {
      const params = new URLSearchParams({ type, limit: String(EVENT_PAGE_SIZE), ...(cursor ? { cursor } : {}) });
      const answer = (await api.call(eventPageSchema, `/v2/events?${params}`)).body;
      let older = false;
      for (const event of answer.data) {
        const at = Date.parse(event.created_at);
        if (at < query.since) older = true;
        const mark = markOf(event, at);
        if (mark && at >= query.since && (!query.url || mark.url === query.url)) marks.push(mark);
      }
      cursor = answer.next_cursor;
      if (older || !cursor) break;
    }
  }
  return marks.sort((a, b) => a.at - b.at);
}

function markOf(event: { id: string; type: string; data: unknown }, at: number): AlertMark | null {
  if (event.type === "tracked_url.spike") {
    const data = EVENT_TYPES["tracked_url.spike"].data.safeParse(event.data);
    return data.success ? { id: event.id, kind: "spike", at, url: data.data.url, network: data.data.network, from: data.data.from, to: data.data.to, windowHours: data.data.window_hours } : null;
  }
  if (event.type === "tracked_url.milestone") {
    const data = EVENT_TYPES["tracked_url.milestone"].data.safeParse(event.data);
    return data.success ? { id: event.id, kind: "milestone", at, url: data.data.url, milestone: data.data.milestone, total: data.data.total } : null;
  }
  return null;
}
