import type { ApiDeps } from "../../api-deps.ts";
import { readJsonBody } from "../../http/json-body.ts";
import { noContent, send } from "../../http/respond.ts";
import { validQuery } from "../../http/validate.ts";
import { queueImport } from "../../imports/queue-import.ts";
import { sparklines } from "../../history/sparklines.ts";
import { trackUrls } from "../../tracking/add-tracked.ts";
import { decodeCursor, encodeCursor, listTracked, trackedStatus, untrackUrl } from "../../tracking/track-urls.ts";
import { setAliases, trackedUrlDetail } from "../../tracking/tracked-url.ts";
import { storedNetworks } from "../../v2/network-objects.ts";
import { unavailability, whyNot, type Unavailability } from "../../networks/health.ts";
import type { NetworkId } from "../../../lib/counts/all-networks.ts";
import { aliasesBodySchema, trackBodySchema, trackedListQuerySchema, untrackQuerySchema } from "../../../lib/v2/tracked-schemas.ts";
import { iso, MAX_V2_BODY_BYTES, networksAsked, v2Endpoint } from "./v2-endpoint.ts";
import { spendQuota } from "../../requests/attribution.ts";

/**
 * POST /v2/tracked: `{"urls":[…]}` tracks them now, each new one spending a query of today's quota (all or
 * none within the plan's free slots and the quota left, unless `on_limit` is `add_what_fits`); `{"sitemap"}`
 * or `{"feed"}` queues an import.
 */
export const v2TrackHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, "tracked:write", async (account, { req }) => {
    const body = await readJsonBody(req, trackBodySchema, MAX_V2_BODY_BYTES);
    if (body.urls) {
      const tally = await trackUrls(deps, account, body.urls, { onLimit: body.on_limit, offWhitelist: "refuse" });
      // Each URL added took one query (see trackUrls); an import pays as it reads, later.
      spendQuota(req, tally.added);
      const { added, already_tracked, invalid, over_limit, over_quota } = tally;
      return send(200, { added, already_tracked, invalid, over_limit, over_quota });
    }
    if (body.sitemap) return send(202, await queueImport(deps, account, "sitemap", body.sitemap));
    return send(202, await queueImport(deps, account, "feed", body.feed!));
  });

/** GET /v2/tracked: a page of the account's tracked URLs, by a cursor. */
export const v2TrackedListHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, "tracked:read", async (account, { params }) => {
    const query = validQuery(trackedListQuerySchema, params);
    const ordering = { sort: query.sort, order: query.order };
    const after = query.cursor ? decodeCursor(query.cursor, ordering) : undefined;
    const page = await listTracked(deps, account, { ...ordering, limit: query.limit, after, search: query.q, filter: query.filter });
    const shown = networksAsked(deps, account, undefined);
    const states = unavailability(await deps.networkHealth(), "refresh");
    const lines = query.sparkline ? await sparklines(deps, account.id, page.rows, deps.clock.now(), account.networks) : null;
    return send(200, {
      data: page.rows.map((row) => (lines ? { ...trackedItem(row, shown, states), sparkline: lines.get(row.urlId) } : trackedItem(row, shown, states))),
      next_cursor: page.next ? encodeCursor(page.next, ordering) : null,
    });
  });

type TrackedRow = Awaited<ReturnType<typeof listTracked>>["rows"][number];
type States = ReadonlyMap<NetworkId, Unavailability>;

/**
 * Why a tracked URL's network (or a form's, `counted`: whether it was ever counted) has no value: the network's
 * state now, else its last refresh gave none (or there was none yet); asked again at the URL's next refresh at the earliest.
 */
const whyNotCounted = (states: States, row: TrackedRow, counted: boolean) =>
  whyNot(states, counted ? "upstream_error" : "pending", iso(row.nextRefreshAt));

const trackedItem = (row: TrackedRow, networks: readonly NetworkId[], states: States) => ({
  url: row.url,
  added_at: iso(row.addedAt),
  last_refreshed_at: iso(row.lastRefreshedAt),
  next_refresh_at: iso(row.nextRefreshAt),
  networks: storedNetworks(row.latest, networks, whyNotCounted(states, row, row.lastRefreshedAt !== null)),
  total: row.total,
  change_7d: row.change7d,
  change_30d: row.change30d,
});

/** GET /v2/tracked/status: how many URLs the account tracks of its limit, and whether refreshes run late. */
export const v2TrackedStatusHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, "tracked:read", async (account) => {
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
  v2Endpoint(deps, "tracked:read", async (account, { params }) => {
    const detail = await trackedUrlDetail(deps, account, validQuery(untrackQuerySchema, params).url);
    const shown = networksAsked(deps, account, undefined);
    const states = unavailability(await deps.networkHealth(), "refresh");
    return send(200, {
      ...trackedItem(detail.row, shown, states),
      aliases: detail.row.aliases,
      count_variants: detail.countVariants,
      forms: detail.forms.map((form) => ({
        url: form.url,
        kind: form.kind,
        observed_at: form.latest ? iso(form.latest.at) : null,
        networks: storedNetworks(form.latest?.values ?? null, shown, whyNotCounted(states, detail.row, form.latest !== null)),
        facebook_counted: form.facebookCounted,
      })),
    });
  });

/** PUT /v2/tracked/aliases `{"url","aliases"}`: replaces the URL's aliases; it is refreshed soon with them. */
export const v2AliasesHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, "tracked:write", async (account, { req }) => {
    const body = await readJsonBody(req, aliasesBodySchema, MAX_V2_BODY_BYTES);
    const { url, aliases, spent } = await setAliases(deps, account, body.url, body.aliases);
    spendQuota(req, spent);
    return send(200, { url, aliases });
  });

/** DELETE /v2/tracked?url=U: 204, or 404 when the account does not track U. */
export const v2UntrackHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, "tracked:write", async (account, { params }) => {
    await untrackUrl(deps, account, validQuery(untrackQuerySchema, params).url);
    return noContent(204);
  });
