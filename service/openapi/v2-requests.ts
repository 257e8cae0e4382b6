import type { RouteConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { requestEntrySchema, requestKeyQuerySchema, requestsAnswerSchema, requestsQuerySchema } from "../../lib/v2/request-schemas.ts";
import { v2Refusals } from "./refusals.ts";

/** The request log's paths. */

const json = (schema: z.ZodType, description: string) => ({ description, content: { "application/json": { schema } } });

export function registerRequestPaths(path: (config: RouteConfig) => void, security: Record<string, string[]>[]) {
  const tags = ["v2"];
  path({
    method: "get",
    path: "/v2/requests",
    tags,
    security,
    summary: "The account's API requests, newest first, a page at a time (cursor); kept REQUEST_LOG_DAYS (30 by default)",
    description:
      "Every API request made with one of the account's keys (v1 and v2, the dashboard's too), written within a fraction of a second. " +
      "No key is ever stored: `apikey` is removed from the query, and the client's address is kept as a /24 or /48 network.",
    request: { query: requestsQuerySchema },
    responses: {
      200: json(requestsAnswerSchema, "A page"),
      ...v2Refusals({ 400: "`invalid_parameter`: a bad filter (status, time, path), `from` not before `to`, or a cursor this log did not write" }),
    },
  });
  path({
    method: "get",
    path: "/v2/requests/{id}",
    tags,
    security,
    summary: "One request of the account's log",
    request: { params: z.object({ id: z.string().meta({ description: "The request's id (req_…)" }) }), query: requestKeyQuerySchema },
    responses: {
      200: json(requestEntrySchema, "The request"),
      ...v2Refusals({ 404: "`request_not_found`: no such request of this account (or past REQUEST_LOG_DAYS)" }),
    },
  });
}
