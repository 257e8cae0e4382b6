import type { RouteConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import {
  bulkResultSchema,
  bulkSubmitAnswerSchema,
  quotaAnswerSchema,
  statusAnswerSchema,
  usageAnswerSchema,
  v10CountSchema,
  v11CountSchema,
  v1CountQuerySchema,
  whitelistAnswerSchema,
} from "./v1-schemas.ts";
import { KEY_REFUSED, NOT_WHITELISTED, QUOTA_USED_UP, refusals, UNAVAILABLE } from "./refusals.ts";

const json = (schema: z.ZodType, description: string) => ({ description, content: { "application/json": { schema } } });
const keyQuery = z.object({ apikey: z.string().meta({ description: "Your API key" }) });
const EXAMPLE_LINES = "https://example.com/post\nhttps://example.org/news";

/** What a v1 bulk job is submitted as: plain lines first, as the original service's clients send it. */
const bulkBody = {
  content: {
    "text/plain": { schema: z.string().meta({ description: "One URL per line (LF or CRLF)", example: EXAMPLE_LINES }) },
    "application/x-www-form-urlencoded": {
      schema: z.object({ urls: z.string().meta({ description: "One URL per line", example: EXAMPLE_LINES }), apikey: z.string().optional() }),
    },
    "multipart/form-data": { schema: z.object({ urls: z.string().meta({ description: "One URL per line, as text or a file" }), apikey: z.string().optional() }) },
    "application/json": { schema: z.object({ urls: z.array(z.string()), apikey: z.string().optional() }) },
  },
};

/**
 * v1.0 and v1.1, as the original service has them. Their one difference on the wire besides the count
 * object: an exhausted quota is a 401 on v1.0 (clients of the original service expect it) and a 403 on v1.1.
 */
export function registerV1(path: (config: RouteConfig) => void): void {
  for (const [version, schema] of [
    ["1.0", v10CountSchema],
    ["1.1", v11CountSchema],
  ] as const) {
    const tags = [`v${version}`];
    const quota = version === "1.0" ? { 401: `${KEY_REFUSED}; ${QUOTA_USED_UP}` } : { 401: KEY_REFUSED };
    const quota403 = version === "1.0" ? "" : `; ${QUOTA_USED_UP}`;
    path({
      method: "get",
      path: `/v${version}/`,
      tags,
      summary: "Share counts of one URL (one query of the daily quota). With `callback`, JSONP: every answer is a 200, errors included",
      request: { query: v1CountQuerySchema },
      responses: {
        200: json(schema, "The count object (JSON, or JSONP with `callback`); `no_jquery_cachebusting` for a JSONP request with jQuery's `_`"),
        ...refusals({
          400: "`invalid_url`: `url` missing or not a public http(s) URL; `invalid_custom_ttl`; `invalid_callback`",
          ...quota,
          403: `${NOT_WHITELISTED}; \`custom_ttl_not_allowed\`: \`custom_ttl\` on a plan other than dedicated${quota403}`,
          503: UNAVAILABLE,
        }),
      },
    });
    path({
      method: "post",
      path: `/v${version}/bulk`,
      tags,
      summary: "Submit a bulk job (paid plans): one URL per line, as text, the form field `urls` (urlencoded or multipart) or JSON `{\"urls\": […]}`",
      request: { query: keyQuery.partial(), body: bulkBody },
      responses: {
        200: json(bulkSubmitAnswerSchema, "The job was queued: poll `GET` with its `bulk_id`"),
        ...refusals({
          400: "`no_valid_urls`: no line is a countable URL; `bulk_limit_exceeded`: more URLs than the plan's batch limit; `invalid_body`",
          ...quota,
          403: `\`bulk_not_allowed\`: the plan has no bulk jobs${quota403}`,
          413: "`body_too_large`: the body is over `BULK_MAX_BODY_BYTES`",
          503: UNAVAILABLE,
        }),
      },
    });
    path({
      method: "get",
      path: `/v${version}/bulk`,
      tags,
      summary: "A bulk job's progress, and its results once complete (or so far, with `force=1`)",
      request: {
        query: keyQuery.extend({
          bulk_id: z.string().meta({ description: "The id `POST` answered" }),
          force: z.enum(["0", "1"]).optional().meta({ description: "1: the results so far, before the job completes" }),
        }),
      },
      responses: {
        200: json(bulkResultSchema, "The job"),
        ...refusals({
          400: "`missing_bulk_id`; `jsonp_not_supported`: bulk is JSON only",
          401: KEY_REFUSED,
          404: "`bulk_not_found`: no such job of this key (or past retention)",
          503: UNAVAILABLE,
        }),
      },
    });
    for (const [route, answer, summary] of [
      ["quota", quotaAnswerSchema, "Today's quota (no quota spent)"],
      ["usage", usageAnswerSchema, "Queries per day, the last 90 days (no quota spent)"],
      ["domain_whitelist", whitelistAnswerSchema, "The domain whitelist (no quota spent)"],
    ] as const) {
      path({
        method: "get",
        path: `/v${version}/${route}`,
        tags,
        summary,
        request: { query: keyQuery },
        responses: {
          200: json(answer, summary),
          ...refusals({ 400: "`jsonp_not_supported`: JSON only", 401: KEY_REFUSED, 503: UNAVAILABLE }),
        },
      });
    }
    path({
      method: "get",
      path: `/v${version}/status`,
      tags,
      summary: "Whether the service is up (no key)",
      responses: { 200: json(statusAnswerSchema, "Up"), 503: { description: "Down: the database (or Redis) cannot answer (no body)" } },
    });
  }
}
