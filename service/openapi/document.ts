import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { countsAnswerSchema, networksAnswerSchema, bulkAnswerSchema, bulkBodySchema, bulkQuerySchema, bulkSubmittedSchema, countsQuerySchema, errorSchema, historyAnswerSchema, historyQuerySchema } from "../../lib/v2/schemas.ts";
import { importAnswerSchema, importQueuedSchema, trackAnswerSchema, trackBodySchema, trackedListAnswerSchema, trackedListQuerySchema, untrackQuerySchema, aliasesBodySchema, aliasesAnswerSchema, trackedUrlAnswerSchema, trackedStatusSchema } from "../../lib/v2/tracked-schemas.ts";
import { MAX_USAGE_RANGE_DAYS, REFUSED_DESCRIPTION, usageAnswerV2Schema, usageQuerySchema } from "../../lib/v2/usage-schemas.ts";
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

/**
 * The OpenAPI 3.1 document of v1.0, v1.1 and v2, generated from the zod schemas the routes validate with
 * (v2) and the contract tests check answers against (v1). Built once per process.
 */

const json = (schema: z.ZodType, description: string) => ({ description, content: { "application/json": { schema } } });
const errors = {
  400: json(errorSchema, "A parameter or the body is not valid"),
  401: json(errorSchema, "The API key is missing or not valid"),
  403: json(errorSchema, "The plan or the quota does not allow this"),
  503: json(errorSchema, "The service's database (or Redis) cannot answer right now"),
};
const keyQuery = z.object({ apikey: z.string().meta({ description: "Your API key" }) });

function register(registry: OpenAPIRegistry) {
  const path = (config: RouteConfig) => registry.registerPath({ ...config, responses: { ...errors, ...config.responses } });
  registry.registerComponent("securitySchemes", "apikey", { type: "apiKey", in: "query", name: "apikey" });
  registry.registerComponent("securitySchemes", "bearer", { type: "http", scheme: "bearer" });
  const v2Security: Record<string, string[]>[] = [{ apikey: [] }, { bearer: [] }];

  for (const [version, schema] of [
    ["1.0", v10CountSchema],
    ["1.1", v11CountSchema],
  ] as const) {
    const tags = [`v${version}`];
    path({
      method: "get",
      path: `/v${version}/`,
      tags,
      summary: "Share counts of one URL (one query of the daily quota)",
      request: { query: v1CountQuerySchema },
      responses: { 200: json(schema, "The count object (JSON, or JSONP with callback)") },
    });
    path({
      method: "post",
      path: `/v${version}/bulk`,
      tags,
      summary: "Submit a bulk job: one URL per line in `urls` (form, multipart, text or JSON)",
      request: { query: keyQuery.partial() },
      responses: { 200: json(bulkSubmitAnswerSchema, "The job was queued") },
    });
    path({
      method: "get",
      path: `/v${version}/bulk`,
      tags,
      summary: "A bulk job's progress and results",
      request: { query: keyQuery.extend({ bulk_id: z.string() }) },
      responses: { 200: json(bulkResultSchema, "The job") },
    });
    for (const [route, answer, summary] of [
      ["quota", quotaAnswerSchema, "Today's quota"],
      ["usage", usageAnswerSchema, "Queries per day"],
      ["domain_whitelist", whitelistAnswerSchema, "The domain whitelist"],
    ] as const) {
      path({ method: "get", path: `/v${version}/${route}`, tags, summary, request: { query: keyQuery }, responses: { 200: json(answer, summary) } });
    }
    path({
      method: "get",
      path: `/v${version}/status`,
      tags,
      summary: "Whether the service is up (no key)",
      responses: { 200: json(statusAnswerSchema, "Up"), 503: { description: "Down (no body)" } },
    });
  }

  const tags = ["v2"];
  path({
    method: "get",
    path: "/v2/counts",
    tags,
    security: v2Security,
    summary: "Share counts of one URL with each network's status (one query of the daily quota)",
    request: { query: countsQuerySchema },
    responses: { 200: json(countsAnswerSchema, "The counts") },
  });
  path({
    method: "post",
    path: "/v2/bulk",
    tags,
    security: v2Security,
    summary: "Queue a bulk job that asks only the networks named (each URL is one query of the daily quota, paid when counted)",
    request: { query: keyQuery.partial(), body: { content: { "application/json": { schema: bulkBodySchema } } } },
    responses: {
      200: json(bulkSubmittedSchema, "The job was queued: poll GET /v2/bulk"),
      403: json(errorSchema, "bulk_not_allowed: the plan has no bulk jobs"),
      400: json(
        errorSchema,
        "bulk_limit_exceeded: more URLs than the plan's batch limit; no_valid_urls: none of the URLs can be counted; invalid_body: the body does not fit BulkRequest (a name too long, or with control characters, included)",
      ),
      413: json(errorSchema, "body_too_large: the body is over 4 MiB"),
      415: json(errorSchema, "invalid_body: the body is not sent as application/json"),
    },
  });
  path({
    method: "get",
    path: "/v2/bulk",
    tags,
    security: v2Security,
    summary: "A bulk job's progress, its name and the quota it spent, and each URL's networks once it completes",
    request: { query: bulkQuerySchema },
    responses: { 200: json(bulkAnswerSchema, "The job"), 404: json(errorSchema, "bulk_not_found: no such job of this account (or past retention)") },
  });
  path({
    method: "get",
    path: "/v2/networks",
    tags,
    security: v2Security,
    summary: "Every network's state, last success, errors and calls in the last hour, and budget (no quota is spent)",
    description: "What to look at when counts are null or stale. State is shared by every process of the service.",
    request: { query: keyQuery.partial() },
    responses: { 200: json(networksAnswerSchema, "One entry per network, enabled or not") },
  });
  path({
    method: "post",
    path: "/v2/tracked",
    tags,
    security: v2Security,
    summary: "Track URLs: refreshed on a schedule, with history (all or none within the plan's limit)",
    request: { query: keyQuery.partial(), body: { content: { "application/json": { schema: trackBodySchema } } } },
    responses: {
      200: json(trackAnswerSchema, "What was added"),
      202: json(importQueuedSchema, "The sitemap or feed import was queued: follow it at /v2/imports/{id}"),
      429: json(errorSchema, "import_limit_exceeded: 5 imports wait or run at once, 20 feeds per account"),
      403: json(errorSchema, "tracked_limit_exceeded: nothing was added"),
    },
  });
  path({
    method: "get",
    path: "/v2/tracked/status",
    tags,
    security: v2Security,
    summary: "How many URLs the account tracks of its plan's limit, and whether refreshes run late",
    request: { query: keyQuery.partial() },
    responses: { 200: json(trackedStatusSchema, "The status") },
  });
  path({
    method: "get",
    path: "/v2/tracked/url",
    tags,
    security: v2Security,
    summary: "One tracked URL: its counts, aliases, and each counted form's latest counts (the variants breakdown)",
    request: { query: untrackQuerySchema },
    responses: { 200: json(trackedUrlAnswerSchema, "The tracked URL"), 404: json(errorSchema, "The account does not track this URL") },
  });
  path({
    method: "put",
    path: "/v2/tracked/aliases",
    tags,
    security: v2Security,
    summary: "Replace a tracked URL's aliases (its older addresses, counted with it)",
    request: { query: keyQuery.partial(), body: { content: { "application/json": { schema: aliasesBodySchema } } } },
    responses: { 200: json(aliasesAnswerSchema, "The aliases, normalized"), 404: json(errorSchema, "The account does not track this URL") },
  });
  path({
    method: "get",
    path: "/v2/imports/{id}",
    tags,
    security: v2Security,
    summary: "A sitemap or feed import's progress",
    request: { params: z.object({ id: z.string() }), query: keyQuery.partial() },
    responses: { 200: json(importAnswerSchema, "The import"), 404: json(errorSchema, "No such import for this key") },
  });
  path({
    method: "delete",
    path: "/v2/imports/{id}",
    tags,
    security: v2Security,
    summary: "Cancel a queued import, or stop reading a feed daily",
    request: { params: z.object({ id: z.string() }), query: keyQuery.partial() },
    responses: { 204: { description: "Cancelled" }, 404: json(errorSchema, "No such import for this key") },
  });
  path({
    method: "get",
    path: "/v2/tracked",
    tags,
    security: v2Security,
    summary: "The account's tracked URLs, sorted, a page at a time (cursor)",
    request: { query: trackedListQuerySchema },
    responses: { 200: json(trackedListAnswerSchema, "A page") },
  });
  path({
    method: "delete",
    path: "/v2/tracked",
    tags,
    security: v2Security,
    summary: "Stop tracking a URL",
    request: { query: untrackQuerySchema },
    responses: { 204: { description: "No longer tracked" }, 404: json(errorSchema, "The account does not track this URL") },
  });
  path({
    method: "get",
    path: "/v2/history",
    tags,
    security: v2Security,
    summary: "A URL's count history (URLs the account tracks or has queried)",
    request: { query: historyQuerySchema },
    responses: { 200: json(historyAnswerSchema, "The points"), 404: json(errorSchema, "No history for this URL on this account") },
  });
  path({
    method: "get",
    path: "/v2/usage",
    tags,
    security: v2Security,
    summary: "Queries served and refused per quota day, by reason (no quota is spent)",
    description:
      `Every day from \`from\` to \`to\` (at most ${MAX_USAGE_RANGE_DAYS} days; by default the last 30 up to today in QUOTA_TIMEZONE), oldest first, ` +
      `zeros included. Refused: ${REFUSED_DESCRIPTION} A bad date, from after to, or a longer range is a 400 invalid_parameter.`,
    request: { query: usageQuerySchema },
    responses: { 200: json(usageAnswerV2Schema, "The days") },
  });
  path({
    method: "get",
    path: "/v2/history.csv",
    tags,
    security: v2Security,
    summary: "The same history as CSV",
    request: { query: historyQuerySchema },
    responses: { 200: { description: "CSV: url, t, then each network's numbers (empty: not reported), named after the URL's host and path (example.com_post-1_history.csv)", content: { "text/csv": { schema: z.string() } } } },
  });
}

let document: string | null = null;

/** The document as JSON text. */
export function openApiDocument(): string {
  if (document === null) {
    const registry = new OpenAPIRegistry();
    register(registry);
    const generated = new OpenApiGeneratorV31(registry.definitions).generateDocument({
      openapi: "3.1.0",
      info: {
        title: "sharecount API",
        version: "2.0.0",
        description: "Share counts of public URLs. v1.0 and v1.1 are wire-compatible with the SharedCount API; v2 adds statuses, tracked URLs and history.",
      },
    });
    document = JSON.stringify(generated);
  }
  return document;
}
