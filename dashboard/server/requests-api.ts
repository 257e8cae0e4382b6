import "server-only";
import type { ShareCountApi } from "./api-client.ts";
import { requestEntrySchema, requestPageSchema, TIME_RANGES, type TimeRange } from "../client/requests.ts";

export interface RequestQuery {
  status?: string;
  error_type?: string;
  key_id?: string;
  path?: string;
  range?: TimeRange;
  cursor?: string;
}

/** The account's request log, through API v2 with its key; a time range ends now (`now`, the dashboard's clock). */
export function requestsOf(api: ShareCountApi, now: number) {
  return {
    page: async ({ range, ...filters }: RequestQuery) => {
      const params = new URLSearchParams({ limit: "50" });
      for (const [name, value] of Object.entries(filters)) if (value) params.set(name, value);
      if (range) params.set("from", new Date(now - TIME_RANGES[range]).toISOString());
      return (await api.call(requestPageSchema, `/v2/requests?${params}`)).body;
    },
    get: async (id: string) => (await api.call(requestEntrySchema, `/v2/requests/${encodeURIComponent(id)}`)).body,
  };
}
