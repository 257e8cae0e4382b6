import { z } from "zod";
import { apikey, count, queryInteger } from "./schemas.ts";

/** API v2's request log (GET /v2/requests and /v2/requests/{id}): requests and answers. */

export const MAX_REQUEST_PAGE = 100;

const at = z.iso.datetime();
const instant = (name: string, description: string) =>
  z.iso
    .datetime({ offset: true, error: `${name} must be an ISO 8601 time such as 2026-11-27T09:00:00Z` })
    .transform((text) => Date.parse(text))
    .meta({ description, example: "2026-11-27T09:00:00Z" });

/** `4xx` (a class) or `404` (one code), as the inclusive range of statuses it names. */
const statusFilter = z
  .string()
  .regex(/^[1-5](xx|\d\d)$/i, "status must be a class such as 4xx or a code such as 404")
  .transform((text) => {
    const lower = text.toLowerCase();
    if (lower.endsWith("xx")) return { min: Number(lower[0]) * 100, max: Number(lower[0]) * 100 + 99 };
    return { min: Number(lower), max: Number(lower) };
  })
  .meta({ description: "A status class (2xx, 4xx, 5xx…) or one status code", example: "4xx" });

export const requestsQuerySchema = z
  .strictObject({
    apikey,
    status: statusFilter.optional(),
    error_type: z
      .string()
      .regex(/^[a-z][a-z0-9_]{0,63}$/, "error_type must be an error Type such as quota_exceeded")
      .optional()
      .meta({ description: "Only answers with this error `Type`", example: "quota_exceeded" }),
    key_id: z.string().min(1).max(100, "key_id is over 100 characters").optional().meta({ description: "Only requests made with this key" }),
    path: z
      .string()
      .max(512, "path is over 512 characters")
      .regex(/^\//, "path must start with / (such as /v1.0/ or /v2/counts)")
      .optional()
      .meta({ description: "Only requests to this path, exactly as requested", example: "/v2/counts" }),
    from: instant("from", "Only requests at or after this time").optional(),
    to: instant("to", "Only requests before this time").optional(),
    limit: queryInteger(1, MAX_REQUEST_PAGE).default(20).meta({ description: `At most this many (1 to ${MAX_REQUEST_PAGE}, default 20)` }),
    cursor: z.string().max(200).optional().meta({ description: "next_cursor of the previous page" }),
  })
  .refine((query) => query.from === undefined || query.to === undefined || query.from < query.to, { message: "from must be before to", path: ["from"] });

export const requestKeyQuerySchema = z.strictObject({ apikey });

export const requestEntrySchema = z
  .object({
    id: z.string().meta({ description: "req_…" }),
    time: at.meta({ description: "When the request arrived" }),
    key_id: z.string().nullable().meta({ description: "The key's id; null for the dashboard's own calls (made with its signed token, not a key)" }),
    method: z.string(),
    path: z.string(),
    query: z.string().meta({ description: "The query string without `apikey` (no key is ever stored)" }),
    status: z.number().int(),
    error_type: z.string().nullable().meta({ description: "The error object's `Type`, when the answer was an error" }),
    duration_ms: count,
    url: z.string().nullable().meta({ description: "The URL the request named (`url`), if any" }),
    quota_spent: count.meta({ description: "Queries of the daily quota the request took (a bulk job pays later, as it counts)" }),
    ip: z.string().meta({ description: "The client's network: an IPv4 /24 or IPv6 /48, never the whole address" }),
    user_agent: z.string().nullable(),
  })
  .meta({ id: "RequestLogEntry" });

export const requestsAnswerSchema = z
  .object({ data: z.array(requestEntrySchema), next_cursor: z.string().nullable() })
  .meta({ id: "RequestLog", description: "Newest first" });
