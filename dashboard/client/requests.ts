import { z } from "zod";

/** The Requests page's filters, as its address holds them (`?status=4xx&path=/v1.0/&range=24h&request=req_…`). */

export const STATUS_CLASSES = ["2xx", "4xx", "5xx"] as const;
export const TIME_RANGES = { "1h": 3_600_000, "24h": 86_400_000, "7d": 7 * 86_400_000, "30d": 30 * 86_400_000 } as const;
export type TimeRange = keyof typeof TIME_RANGES;
export const RANGE_LABELS: Record<TimeRange, string> = { "1h": "Last hour", "24h": "Last 24 hours", "7d": "Last 7 days", "30d": "Last 30 days" };

export interface RequestFilters {
  status: string;
  errorType: string;
  keyId: string;
  path: string;
  range: TimeRange | "";
}

export const NO_FILTERS: RequestFilters = { status: "", errorType: "", keyId: "", path: "", range: "" };

const PARAMS: Record<keyof RequestFilters, string> = { status: "status", errorType: "error_type", keyId: "key_id", path: "path", range: "range" };

/** The filters in `search`; a value the page could not have written is left out. */
export function parseRequestFilters(search: URLSearchParams): RequestFilters {
  const get = (name: keyof RequestFilters) => (search.get(PARAMS[name]) ?? "").trim().slice(0, 512);
  const range = get("range");
  return {
    status: /^[1-5](xx|\d\d)$/i.test(get("status")) ? get("status").toLowerCase() : "",
    errorType: /^[a-z][a-z0-9_]{0,63}$/.test(get("errorType")) ? get("errorType") : "",
    keyId: get("keyId"),
    path: get("path").startsWith("/") ? get("path") : "",
    range: range in TIME_RANGES ? (range as TimeRange) : "",
  };
}

/** The filters as query parameters (empty ones left out), for the address and the dashboard route alike. */
export function requestFilterParams(filters: RequestFilters): Record<string, string> {
  const params: Record<string, string> = {};
  for (const name of Object.keys(PARAMS) as (keyof RequestFilters)[]) if (filters[name]) params[PARAMS[name]] = filters[name];
  return params;
}

export const hasFilters = (filters: RequestFilters) => Object.keys(requestFilterParams(filters)).length > 0;

/** The dashboard route's input: the same filters, checked again on the server, and a page's cursor. */
export const requestsRouteSchema = z.object({
  status: z.string().regex(/^[1-5](xx|\d\d)$/i, "status must be a class such as 4xx or a code such as 404").optional(),
  error_type: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, "not an error type").optional(),
  key_id: z.string().min(1).max(100).optional(),
  path: z.string().max(512).regex(/^\//, "a path starts with /").optional(),
  range: z.enum(Object.keys(TIME_RANGES) as [TimeRange, ...TimeRange[]]).optional(),
  cursor: z.string().min(1).max(200).optional(),
});

export const requestEntrySchema = z.object({
  id: z.string(),
  time: z.string(),
  key_id: z.string().nullable(),
  method: z.string(),
  path: z.string(),
  query: z.string(),
  status: z.number(),
  error_type: z.string().nullable(),
  duration_ms: z.number(),
  url: z.string().nullable(),
  quota_spent: z.number(),
  ip: z.string(),
  user_agent: z.string().nullable(),
});
export type RequestEntry = z.infer<typeof requestEntrySchema>;

export const requestPageSchema = z.object({ data: z.array(requestEntrySchema), next_cursor: z.string().nullable() });
export type RequestPage = z.infer<typeof requestPageSchema>;

/** How a status reads at a glance. */
export function statusTone(status: number): "ok" | "client" | "server" {
  if (status >= 500) return "server";
  return status >= 400 ? "client" : "ok";
}
