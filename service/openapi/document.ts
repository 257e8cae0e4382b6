import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { countsAnswerSchema, networksAnswerSchema, bulkAnswerSchema, bulkBodySchema, bulkQuerySchema, bulkSubmittedSchema, countsQuerySchema, historyAnswerSchema, historyQuerySchema } from "../../lib/v2/schemas.ts";
import { importAnswerSchema, importQueuedSchema, trackAnswerSchema, trackBodySchema, trackedListAnswerSchema, trackedListQuerySchema, untrackQuerySchema, aliasesBodySchema, aliasesAnswerSchema, trackedUrlAnswerSchema, trackedStatusSchema } from "../../lib/v2/tracked-schemas.ts";
import { MAX_USAGE_RANGE_DAYS, REFUSED_DESCRIPTION, usageAnswerV2Schema, usageQuerySchema } from "../../lib/v2/usage-schemas.ts";
import { accountExportQuerySchema, accountExportSchema } from "../../lib/v2/export-schemas.ts";
import { registerV1 } from "./v1-paths.ts";
import { JSON_BODY, NOT_WHITELISTED, QUOTA_USED_UP, v2Refusals } from "./refusals.ts";
import { registerEventWebhooks, registerWebhookPaths } from "./v2-webhooks.ts";
import { registerKeyPaths } from "./v2-keys.ts";
import { withScope } from "./scopes.ts";
import { registerAuditPaths } from "./v2-audit.ts";
import { registerRequestPaths } from "./v2-requests.ts";

/**
 * The OpenAPI 3.1 document of v1.0, v1.1 and v2, generated from the zod schemas the routes validate with
 * (v2) and the contract tests check answers against (v1). Built once per process.
 */

const json = (schema: z.ZodType, description: string) => ({ description, content: { "application/json": { schema } } });
const keyQuery = z.object({ apikey: z.string().meta({ description: "Your API key" }) });

function register(registry: OpenAPIRegistry) {
  const path = (config: RouteConfig) => registry.registerPath(withScope(config));
  registry.registerComponent("securitySchemes", "apikey", { type: "apiKey", in: "query", name: "apikey" });
  registry.registerComponent("securitySchemes", "bearer", { type: "http", scheme: "bearer" });
  const v2Security: Record<string, string[]>[] = [{ apikey: [] }, { bearer: [] }];

  registerV1(path);

  const tags = ["v2"];
  path({
    method: "get",
    path: "/v2/counts",
    tags,
    security: v2Security,
    summary: "Share counts of one URL with each network's status (one query of the daily quota)",
    request: { query: countsQuerySchema },
    responses: {
      200: json(countsAnswerSchema, "The counts"),
      ...v2Refusals({ 400: "`invalid_url`", 403: `${QUOTA_USED_UP}; ${NOT_WHITELISTED}` }),
    },
  });
  path({
    method: "post",
    path: "/v2/bulk",
    tags,
    security: v2Security,
    summary: "Queue a bulk job that asks only the networks named (each URL is one query of the daily quota, paid when counted)",
    request: { query: keyQuery.partial(), body: { content: { "application/json": { schema: bulkBodySchema } } } },
    responses: {
      200: json(bulkSubmittedSchema, "The job was queued: poll `GET /v2/bulk`"),
      ...v2Refusals({
        400: "`invalid_body`: not JSON, or not this shape (a name too long, or with control characters, included); `bulk_limit_exceeded`: more URLs than the plan's batch limit; `no_valid_urls`: none of the URLs can be counted",
        403: `\`bulk_not_allowed\`: the plan has no bulk jobs; ${NOT_WHITELISTED}; ${QUOTA_USED_UP}`,
        ...JSON_BODY,
      }),
    },
  });
  path({
    method: "get",
    path: "/v2/bulk",
    tags,
    security: v2Security,
    summary: "A bulk job's progress, its name and the quota it spent, and each URL's networks once it completes",
    request: { query: bulkQuerySchema },
    responses: {
      200: json(bulkAnswerSchema, "The job"),
      ...v2Refusals({ 400: "`missing_bulk_id`", 404: "`bulk_not_found`: no such job of this account (or past retention)" }),
    },
  });
  path({
    method: "get",
    path: "/v2/networks",
    tags,
    security: v2Security,
    summary: "Every network's state, last success, errors and calls in the last hour, and budget (no quota is spent)",
    description: "What to look at when counts are null or stale. State is shared by every process of the service.",
    request: { query: keyQuery.partial() },
    responses: { 200: json(networksAnswerSchema, "One entry per network, enabled or not"), ...v2Refusals() },
  });
  path({
    method: "post",
    path: "/v2/tracked",
    tags,
    security: v2Security,
    summary: "Track URLs (each new one is one query of the daily quota): refreshed on a schedule, with history. All or none within the plan's free slots and the quota left, unless `on_limit` is `add_what_fits`; or import a `sitemap` or `feed`",
    request: { query: keyQuery.partial(), body: { content: { "application/json": { schema: trackBodySchema } } } },
    responses: {
      200: json(trackAnswerSchema, "What was added"),
      202: json(importQueuedSchema, "The sitemap or feed import was queued: follow it at `/v2/imports/{id}`"),
      ...v2Refusals({
        400: "`invalid_body`: not JSON, or not this shape; `invalid_url`: the sitemap or feed is not an http(s) URL",
        403: `\`tracked_limit_exceeded\`: more new URLs than the plan's free slots; ${QUOTA_USED_UP}; ${NOT_WHITELISTED} (nothing was added)`,
        ...JSON_BODY,
        429: "`import_limit_exceeded`: 5 imports wait or run at once, 20 feeds per account",
      }),
    },
  });
  path({
    method: "get",
    path: "/v2/tracked/status",
    tags,
    security: v2Security,
    summary: "How many URLs the account tracks of its plan's limit, and whether refreshes run late",
    request: { query: keyQuery.partial() },
    responses: { 200: json(trackedStatusSchema, "The status"), ...v2Refusals() },
  });
  path({
    method: "get",
    path: "/v2/tracked/url",
    tags,
    security: v2Security,
    summary: "One tracked URL: its counts, aliases, and each counted form's latest counts (the variants breakdown)",
    request: { query: untrackQuerySchema },
    responses: {
      200: json(trackedUrlAnswerSchema, "The tracked URL"),
      ...v2Refusals({ 400: "`invalid_url`", 404: "`tracked_url_not_found`: the account does not track this URL" }),
    },
  });
  path({
    method: "put",
    path: "/v2/tracked/aliases",
    tags,
    security: v2Security,
    summary: "Replace a tracked URL's aliases (its older addresses, counted with it)",
    request: { query: keyQuery.partial(), body: { content: { "application/json": { schema: aliasesBodySchema } } } },
    responses: {
      200: json(aliasesAnswerSchema, "The aliases, normalized"),
      ...v2Refusals({
        400: "`invalid_body`; `invalid_url`: an alias is not a countable URL; more than 10 aliases",
        403: `${QUOTA_USED_UP} (each new alias is one query); ${NOT_WHITELISTED}`,
        404: "`tracked_url_not_found`: the account does not track this URL",
        ...JSON_BODY,
      }),
    },
  });
  path({
    method: "get",
    path: "/v2/imports/{id}",
    tags,
    security: v2Security,
    summary: "A sitemap or feed import's progress",
    request: { params: z.object({ id: z.string() }), query: keyQuery.partial() },
    responses: { 200: json(importAnswerSchema, "The import"), ...v2Refusals({ 404: "`import_not_found`: no such import of this key" }) },
  });
  path({
    method: "delete",
    path: "/v2/imports/{id}",
    tags,
    security: v2Security,
    summary: "Cancel a queued import, or stop reading a feed daily",
    request: { params: z.object({ id: z.string() }), query: keyQuery.partial() },
    responses: { 204: { description: "Cancelled" }, ...v2Refusals({ 404: "`import_not_found`: no such import of this key" }) },
  });
  path({
    method: "get",
    path: "/v2/tracked",
    tags,
    security: v2Security,
    summary: "The account's tracked URLs, sorted, a page at a time (cursor)",
    request: { query: trackedListQuerySchema },
    responses: { 200: json(trackedListAnswerSchema, "A page"), ...v2Refusals() },
  });
  path({
    method: "delete",
    path: "/v2/tracked",
    tags,
    security: v2Security,
    summary: "Stop tracking a URL",
    request: { query: untrackQuerySchema },
    responses: {
      204: { description: "No longer tracked" },
      ...v2Refusals({ 400: "`invalid_url`", 404: "`tracked_url_not_found`: the account does not track this URL" }),
    },
  });
  path({
    method: "get",
    path: "/v2/history",
    tags,
    security: v2Security,
    summary: "A URL's count history (URLs the account tracks or has queried)",
    request: { query: historyQuerySchema },
    responses: {
      200: json(historyAnswerSchema, "The points"),
      ...v2Refusals({ 400: "`invalid_url`", 403: NOT_WHITELISTED, 404: "`not_found`: the account neither tracks nor has queried this URL" }),
    },
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
    responses: { 200: json(usageAnswerV2Schema, "The days"), ...v2Refusals({ 400: "`invalid_parameter`: a bad date, `from` after `to`, or a longer range" }) },
  });
  path({
    method: "get",
    path: "/v2/account/export",
    tags,
    security: v2Security,
    summary: "Everything the account owns as one JSON file: profile, plan, whitelist, usage, tracked URLs and their history, bulk jobs and results (no quota is spent)",
    description:
      "Written as it is read, so a large account downloads without waiting for the whole document. Named `sharecount-export-<email>-<YYYY-MM-DD>.json` " +
      "(Content-Disposition). Never holds the API key, its hash, the password hash, sessions or sign-in tokens.",
    request: { query: accountExportQuerySchema },
    responses: {
      200: json(accountExportSchema, "The export, as an attachment"),
      ...v2Refusals({ 429: "`export_in_progress`: an export of this account is being written (one at a time), or too many exports are" }),
    },
  });
  path({
    method: "get",
    path: "/v2/history.csv",
    tags,
    security: v2Security,
    summary: "The same history as CSV",
    request: { query: historyQuerySchema },
    responses: {
      200: { description: "CSV: `url`, `t`, then each network's numbers (empty: not reported), named after the URL's host and path (`example.com_post-1_history.csv`)", content: { "text/csv": { schema: z.string() } } },
      ...v2Refusals({ 400: "`invalid_url`", 403: NOT_WHITELISTED, 404: "`not_found`: the account neither tracks nor has queried this URL" }),
    },
  });
  registerWebhookPaths(path, v2Security);
  registerKeyPaths(path, v2Security);
  registerAuditPaths(path, v2Security);
  registerRequestPaths(path, v2Security);
  registerEventWebhooks(registry);
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
        description: "Share counts of public URLs. v1.0 and v1.1 are wire-compatible with the SharedCount API; v2 adds statuses, tracked URLs, history, and webhooks and events (the document's `webhooks` describes each event's payload).",
      },
    });
    document = JSON.stringify(generated);
  }
  return document;
}
