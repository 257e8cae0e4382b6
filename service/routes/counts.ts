import type { Context } from "hono";
import { parseCountUrl } from "../../lib/urls/count-url.ts";
import { hostAllowed } from "../../lib/whitelist/domains.ts";
import { countObject, type ApiVersion } from "../counts/count-object.ts";
import type { CountLookup } from "../counts/count-service.ts";
import type { ApiDeps } from "../deps.ts";
import { authenticate } from "../http/auth.ts";
import { ApiError, apiErrors, toApiError } from "../http/errors.ts";
import { apiKeyParam, parseQuery, type QueryParams } from "../http/query.ts";
import { isValidCallback, send, sendError } from "../http/respond.ts";

/** `callback` for a v1.0 JSONP request; errors for a callback we cannot honour. */
function jsonpCallback(params: QueryParams, version: ApiVersion): string | undefined {
  const callback = params.get("callback");
  if (callback === undefined || callback === "") return undefined;
  if (version !== "1.0") throw apiErrors.jsonpNotSupported();
  if (!isValidCallback(callback)) throw apiErrors.invalidCallback();
  return callback;
}

function customTtl(params: QueryParams, max: number): number | undefined {
  const raw = params.get("custom_ttl");
  if (raw === undefined) return undefined;
  if (!/^\d{1,7}$/.test(raw) || Number(raw) > max) throw apiErrors.invalidCustomTtl(max);
  return Number(raw);
}

function cacheHeaders(c: Context, lookup: CountLookup, ttl: number | undefined, now: number) {
  if (ttl === 0) {
    c.header("Cache-Control", "no-store, max-age=0");
    c.header("Expires", new Date(now).toUTCString());
  } else {
    // Rounded up: a fresh answer cached for 60 s says max-age=60, not 59 because a millisecond passed.
    const maxAge = Math.max(0, Math.ceil((lookup.expiresAt - now) / 1000));
    c.header("Cache-Control", `public, max-age=${maxAge}`);
    c.header("Expires", new Date(now + maxAge * 1000).toUTCString());
  }
  c.header("X-Sharecount-Cache", lookup.cache.toUpperCase());
  if (lookup.stale.length > 0) {
    c.header("X-Sharecount-Stale", lookup.stale.map((s) => `${s.network}=${s.ageSeconds}`).join(", "));
  }
}

/** GET /v1.0/ and /v1.1/ (and the legacy /url): the count object for one URL. */
export function countsHandler(deps: ApiDeps, version: ApiVersion) {
  return async (c: Context): Promise<Response> => {
    const params = parseQuery(new URL(c.req.url).search.slice(1));
    let callback: string | undefined;
    try {
      callback = jsonpCallback(params, version);
    } catch (error) {
      return sendError(c, error as ApiError);
    }
    try {
      if (callback && params.has("_")) throw apiErrors.noJqueryCacheBusting();
      const account = await authenticate(deps.store, apiKeyParam(params));
      const target = parseCountUrl(params.get("url") ?? "");
      if (!target.ok) throw apiErrors.invalidUrl(params.has("url") ? target.reason : "the url parameter is required");
      const ttl = customTtl(params, deps.limits.maxCustomTtlSeconds);
      if (ttl !== undefined && !account.plan.customTtlAllowed) throw apiErrors.customTtlNotAllowed(account.plan.name);
      if (account.whitelist.enabled && !hostAllowed(target.url.hostname, account.whitelist.domains)) {
        throw apiErrors.domainNotWhitelisted(target.url.hostname);
      }

      const { day, resetsAt } = deps.clock.today();
      const used = await deps.store.reserveQuery(account.id, day, account.plan.dailyQuota);
      if (used === null) {
        throw apiErrors.quotaExceeded(version, account.plan.dailyQuota, resetsAt, deps.clock.timeZone);
      }
      let lookup: CountLookup;
      try {
        lookup = await deps.counts.lookup(target.normalized, ttl);
      } catch (error) {
        await deps.store.releaseQuery(account.id, day);
        throw error;
      }
      cacheHeaders(c, lookup, ttl, Date.now());
      c.header("X-Quota-Remaining", String(Math.max(0, account.plan.dailyQuota - used)));
      if (deps.sandbox || lookup.sandbox) c.header("X-Sharecount-Sandbox", "true");
      return send(c, 200, countObject(lookup.counts, version), callback);
    } catch (error) {
      return sendError(c, toApiError(error, deps.store), callback);
    }
  };
}
