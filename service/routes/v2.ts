import type { IncomingMessage } from "node:http";
import Papa from "papaparse";
import type { AccountContext } from "../../lib/store/accounts.ts";
import { parseCountUrl } from "../../lib/urls/count-url.ts";
import { variantsOf } from "../../lib/history/variants.ts";
import type { HistoryPoint } from "../../lib/store/history.ts";
import type { ApiDeps } from "../api-deps.ts";
import { paidQuery } from "../counts/count-url.ts";
import { jobAnswer, readJob } from "../bulk/read-job.ts";
import { assertBulkAllowed, startSubmission, submitJob } from "../bulk/submit-job.ts";
import { knownValues } from "../../lib/history/observed.ts";
import { endpoint, type Endpoint, type EndpointRequest } from "../http/endpoint.ts";
import { ApiError, apiErrors } from "../http/errors.ts";
import { readJsonBody } from "../http/json-body.ts";
import { apiKeyParam, plainRequestQuery, type QueryParams } from "../http/query.ts";
import { noContent, send, type Answer } from "../http/respond.ts";
import { validQuery } from "../http/validate.ts";
import { dayRange, readHistory } from "../history/read-history.ts";
import { cancelImport, importAnswer, importNotFound, queueImport } from "../tracking/imports.ts";
import { targetPath } from "../http/paths.ts";
import { sparklines } from "../history/sparklines.ts";
import { decodeCursor, trackedStatus, encodeCursor, listTracked, trackUrls, untrackUrl } from "../tracking/track-urls.ts";
import { combinedNetworks, csvCells, csvColumns, lookupNetworks, resultNetworks, storedNetworks } from "../v2/network-objects.ts";
import type { NetworkId } from "../../lib/counts/all-networks.ts";
import { setAliases, trackedUrlDetail } from "../tracking/tracked-url.ts";
import {
  aliasesBodySchema,
  bulkBodySchema,
  bulkQuerySchema,
  countsQuerySchema,
  historyQuerySchema,
  trackBodySchema,
  trackedListQuerySchema,
  untrackQuerySchema,
} from "../../lib/v2/schemas.ts";

/** JSON bodies of v2 (10,000 URLs of a typical length fit; longer lists go in several requests or a sitemap). */
const MAX_V2_BODY_BYTES = 4 * 1024 * 1024;

/** The key from `Authorization: Bearer <key>` or from `apikey`; both at once must agree. */
function v2Key(req: IncomingMessage, params: QueryParams): string | undefined {
  const header = req.headers.authorization;
  const query = apiKeyParam(params);
  if (header === undefined) return query;
  const bearer = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header)?.[1];
  if (!bearer) throw new ApiError("invalid_api_key", 401, "The Authorization header must be `Bearer <your API key>`.");
  if (query !== undefined && query !== bearer) {
    throw new ApiError("invalid_parameter", 400, "Two different API keys were sent (Authorization and apikey): send one.");
  }
  return bearer;
}

type V2Handler = (account: AccountContext, request: EndpointRequest) => Promise<Answer>;

/** A v2 endpoint: JSON only (JSONP stays a v1 feature), authenticated by bearer token or `apikey`. */
function v2Endpoint(deps: ApiDeps, answer: V2Handler): Endpoint {
  return endpoint("refuse", async (request) => answer(await deps.auth.authenticate(v2Key(request.req, request.params)), request), plainRequestQuery);
}

const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());

/**
 * The networks a v2 request asks or answers: those it names, else those the account shows (what every v2
 * answer carries, and what totals sum); each must be one this service asks.
 */
function networksAsked(deps: ApiDeps, account: AccountContext, named: readonly NetworkId[] | undefined): NetworkId[] {
  if (!named) {
    const shown = deps.counts.enabled.filter((id) => account.networks === null || account.networks.includes(id));
    // Networks the account chose may have been turned off since: then it sees every network the service asks.
    return shown.length > 0 ? shown : [...deps.counts.enabled];
  }
  const off = named.filter((id) => !deps.counts.enabled.includes(id));
  if (off.length > 0) {
    throw new ApiError("invalid_parameter", 400, `This service does not ask ${off.join(", ")} (see GET /v2/networks): leave ${off.length === 1 ? "it" : "them"} out of networks.`);
  }
  return [...new Set(named)];
}

/**
 * GET /v2/counts: one query of the daily quota, with each network's status; only the networks asked are
 * called. With variants, the forms' combined counts too.
 */
export const v2CountsHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, async (account, { params }) => {
    const query = validQuery(countsQuerySchema, params);
    const parsed = parseCountUrl(query.url);
    if (!parsed.ok) throw apiErrors.invalidUrl(parsed.reason);
    const wanted = networksAsked(deps, account, query.networks);
    const target = { host: parsed.url.hostname, normalized: parsed.normalized };
    const forms = query.variants ? variantsOf(parsed.normalized) : [parsed.normalized];
    const { result: lookups, remaining } = await paidQuery(deps, account, target, "1.1", () =>
      Promise.all(forms.map((form) => deps.counts.lookupNetworks(form, wanted))),
    );
    const headers = { "X-Quota-Remaining": String(remaining), ...(deps.sandbox ? { "X-Sharecount-Sandbox": "1" } : {}) };
    const main = lookups[0]!;
    if (!query.variants) {
      return send(200, { url: parsed.normalized, fetched_at: iso(main.fetchedAt), networks: lookupNetworks(main, wanted) }, { headers });
    }
    return send(
      200,
      {
        url: parsed.normalized,
        fetched_at: iso(Math.min(...lookups.map((l) => l.fetchedAt))),
        networks: combinedNetworks(lookups, wanted),
        variants: forms.map((form, i) => ({ url: form, networks: lookupNetworks(lookups[i]!, wanted) })),
      },
      { headers },
    );
  });

/**
 * POST /v2/bulk: v1's bulk job (the plan's batch limit, the whitelist, each URL paid for when it is
 * counted) with a JSON body, asking only the job's networks; answers `{count, bulk_id}`.
 */
export const v2BulkSubmitHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, async (account, { req }) => {
    assertBulkAllowed(account);
    // A whole JSON body is parsed at once: v2's bound keeps that short (longer lists: several jobs, or v1's streamed bulk).
    const body = await readJsonBody(req, bulkBodySchema, MAX_V2_BODY_BYTES);
    const networks = networksAsked(deps, account, body.networks);
    const submission = await startSubmission(deps, account);
    for (const url of body.urls) {
      submission.add(url);
      if (submission.over) throw apiErrors.bulkLimitExceeded(submission.limit);
    }
    const { bulkId, count } = await submitJob(deps, account, submission.urls, "1.1", networks);
    return send(200, { count, bulk_id: bulkId });
  });

/** GET /v2/bulk: a job's progress, and its URLs' networks once complete (or so far, with force=1). */
export const v2BulkRetrieveHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, async (account, { params }) => {
    if (!params.get("bulk_id")) throw apiErrors.missingBulkId();
    const query = validQuery(bulkQuerySchema, params);
    const reading = await readJob(deps, account, query.bulk_id, { partial: query.force === "1" });
    const wanted = reading.job.networks ?? ["facebook", "pinterest"];
    return send(
      200,
      jobAnswer(reading, (result) =>
        "networks" in result ? resultNetworks(result.networks, wanted) : storedNetworks(knownValues(result.counts), wanted),
      ),
    );
  });

/** GET /v2/networks: every network's state, calls and budget (no quota is spent). */
export const v2NetworksHandler = (deps: ApiDeps) => v2Endpoint(deps, async () => send(200, { networks: await deps.networkHealth() }));

/**
 * POST /v2/tracked: `{"urls":[…]}` tracks them now (all or none within the plan's limit); `{"sitemap"}` or
 * `{"feed"}` queues an import.
 */
export const v2TrackHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, async (account, { req }) => {
    const body = await readJsonBody(req, trackBodySchema, MAX_V2_BODY_BYTES);
    if (body.urls) return send(200, await trackUrls(deps, account, body.urls));
    if (body.sitemap) return send(202, await queueImport(deps, account, "sitemap", body.sitemap));
    return send(202, await queueImport(deps, account, "feed", body.feed!));
  });

/** The import id of a `/v2/imports/{id}` request. */
function importIdOf(req: IncomingMessage): string {
  try {
    return decodeURIComponent(targetPath(req.url!).slice("/v2/imports/".length));
  } catch {
    throw importNotFound();
  }
}

/** GET /v2/imports/{id}: an import's progress (only the account's own). */
export const v2ImportHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, async (account, { req }) => {
    const entry = await deps.store.imports.get(account.id, importIdOf(req));
    if (!entry) throw importNotFound();
    return send(200, importAnswer(entry));
  });

/** DELETE /v2/imports/{id}: cancels a queued import, or stops reading a feed daily. */
export const v2CancelImportHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, async (account, { req }) => {
    await cancelImport(deps, account, importIdOf(req));
    return noContent(204);
  });

/** GET /v2/tracked: a page of the account's tracked URLs, by a cursor. */
export const v2TrackedListHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, async (account, { params }) => {
    const query = validQuery(trackedListQuerySchema, params);
    const ordering = { sort: query.sort, order: query.order };
    const after = query.cursor ? decodeCursor(query.cursor, ordering) : undefined;
    const page = await listTracked(deps, account, { ...ordering, limit: query.limit, after, search: query.q, filter: query.filter });
    const shown = networksAsked(deps, account, undefined);
    const lines = query.sparkline ? await sparklines(deps.store.history, page.rows.map((row) => row.urlId), deps.clock.now(), account.networks) : null;
    return send(200, {
      data: page.rows.map((row) => (lines ? { ...trackedItem(row, shown), sparkline: lines.get(row.urlId) } : trackedItem(row, shown))),
      next_cursor: page.next ? encodeCursor(page.next, ordering) : null,
    });
  });

const trackedItem = (row: Awaited<ReturnType<typeof listTracked>>["rows"][number], networks: readonly NetworkId[]) => ({
  url: row.url,
  added_at: iso(row.addedAt),
  last_refreshed_at: iso(row.lastRefreshedAt),
  next_refresh_at: iso(row.nextRefreshAt),
  networks: storedNetworks(row.latest, networks),
  total: row.total,
  change_7d: row.change7d,
  change_30d: row.change30d,
});

/** GET /v2/tracked/status: how many URLs the account tracks of its limit, and whether refreshes run late. */
export const v2TrackedStatusHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, async (account) => {
    const status = await trackedStatus(deps, account);
    return send(200, {
      tracked: status.tracked,
      limit: status.limit,
      due: status.due,
      oldest_due_at: iso(status.oldestDueAt),
      delayed: status.delayed,
    });
  });

/** GET /v2/tracked/url?url=U: one tracked URL with its aliases and each counted form's latest counts. */
export const v2TrackedUrlHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, async (account, { params }) => {
    const detail = await trackedUrlDetail(deps, account, validQuery(untrackQuerySchema, params).url);
    const shown = networksAsked(deps, account, undefined);
    return send(200, {
      ...trackedItem(detail.row, shown),
      aliases: detail.row.aliases,
      count_variants: detail.countVariants,
      forms: detail.forms.map((form) => ({
        url: form.url,
        kind: form.kind,
        observed_at: form.latest ? iso(form.latest.at) : null,
        networks: storedNetworks(form.latest?.values ?? null, shown),
        facebook_counted: form.facebookCounted,
      })),
    });
  });

/** PUT /v2/tracked/aliases `{"url","aliases"}`: replaces the URL's aliases; it is refreshed soon with them. */
export const v2AliasesHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, async (account, { req }) => {
    const body = await readJsonBody(req, aliasesBodySchema, MAX_V2_BODY_BYTES);
    return send(200, await setAliases(deps, account, body.url, body.aliases));
  });

/** DELETE /v2/tracked?url=U: 204, or 404 when the account does not track U. */
export const v2UntrackHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, async (account, { params }) => {
    await untrackUrl(deps, account, validQuery(untrackQuerySchema, params).url);
    return noContent(204);
  });

/** A URL's history, with the networks the account shows (what its answers carry). */
async function historyOf(deps: ApiDeps, account: AccountContext, params: QueryParams) {
  const query = validQuery(historyQuerySchema, params);
  const range = dayRange(deps.clock.now(), query.from, query.to);
  return { interval: query.interval, shown: networksAsked(deps, account, undefined), ...(await readHistory(deps, account, query.url, range, query.interval)) };
}

/** GET /v2/history: the URL's points, hourly or daily. */
export const v2HistoryHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, async (account, { params }) => {
    const history = await historyOf(deps, account, params);
    return send(200, {
      url: history.url,
      interval: history.interval,
      points: history.points.map((point) => ({ t: iso(point.at), networks: storedNetworks(point.values, history.shown) })),
    });
  });

/** GET /v2/history.csv: the same points as CSV, one row per point. */
export const v2HistoryCsvHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, async (account, { params }) => {
    const history = await historyOf(deps, account, params);
    const answer = send(200, null);
    const name = `history-${new URL(history.url).hostname}-${history.interval}.csv`;
    return {
      status: 200,
      headers: {
        ...answer.headers,
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${name}"`,
      },
      body:
        Papa.unparse({
          fields: ["t", ...csvColumns(history.shown)],
          data: history.points.map((point) => [new Date(point.at).toISOString(), ...csvCells(point.values, history.shown)]),
        }) + "\r\n",
    };
  });
