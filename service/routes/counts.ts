import type { IncomingMessage } from "node:http";
import { LRUCache } from "lru-cache";
import { parseCountUrl, type CountUrlResult } from "../../lib/urls/count-url.ts";
import type { StoredCounts } from "../../lib/counts/values.ts";
import type { AccountContext } from "../../lib/store/accounts.ts";
import { countObject, type ApiVersion } from "../counts/count-object.ts";
import type { CountLookup } from "../counts/count-service.ts";
import { paidQuery } from "../counts/count-url.ts";
import { andThen } from "../../lib/maybe.ts";
import { countingRefusals } from "../quota/refusals.ts";
import type { ApiDeps } from "../api-deps.ts";
import { endpoint } from "../http/endpoint.ts";
import { apiErrors } from "../http/errors.ts";
import { apiKeyParam, type QueryParams } from "../http/query.ts";
import { sendJson } from "../http/respond.ts";
import { spendQuota } from "../requests/attribution.ts";

function customTtl(params: QueryParams, max: number): number | undefined {
  const raw = params.get("custom_ttl");
  if (raw === undefined) return undefined;
  if (!/^\d{1,7}$/.test(raw) || Number(raw) > max) throw apiErrors.invalidCustomTtl(max);
  return Number(raw);
}

const CACHE_LABEL = { hit: "HIT", miss: "MISS", bypass: "BYPASS" } as const;

/** Parsed `url` values: popular URLs are asked for over and over, and parsing is a large part of an answer. */
const parsedUrls = new LRUCache<string, CountUrlResult>({ max: 10_000 });
function parseCached(raw: string): CountUrlResult {
  let parsed = parsedUrls.get(raw);
  if (!parsed) {
    parsed = parseCountUrl(raw);
    parsedUrls.set(raw, parsed);
  }
  return parsed;
}

/** A cached answer's counts are the same object until it is fetched again: serialize each version once. */
const serialized = new WeakMap<StoredCounts, Partial<Record<ApiVersion, string>>>();
function countJson(counts: StoredCounts, version: ApiVersion): string {
  let bodies = serialized.get(counts);
  if (!bodies) serialized.set(counts, (bodies = {}));
  return (bodies[version] ??= JSON.stringify(countObject(counts, version)));
}

/** Headers of a count answer: how long it may be cached, where it came from, what is left of the quota. */
function countHeaders(lookup: CountLookup, ttl: number | undefined, remaining: number, sandbox: boolean) {
  const now = Date.now();
  // Rounded up: a fresh answer cached for 60 s says max-age=60, not 59 because a millisecond passed.
  const maxAge = ttl === 0 ? 0 : Math.max(0, Math.ceil((lookup.expiresAt - now) / 1000));
  const headers: Record<string, string> = {
    "Cache-Control": ttl === 0 ? "no-store, max-age=0" : `public, max-age=${maxAge}`,
    Expires: httpDate(now + maxAge * 1000),
    "X-Sharecount-Cache": CACHE_LABEL[lookup.cache],
    "X-Quota-Remaining": String(remaining),
  };
  if (lookup.stale.length > 0) {
    headers["X-Sharecount-Stale"] = lookup.stale.map((s) => `${s.network}=${s.ageSeconds}`).join(", ");
  }
  if (sandbox) headers["X-Sharecount-Sandbox"] = "true";
  return headers;
}

let lastHttpDate = { second: -1, text: "" };
/** HTTP dates have one-second resolution; format each second once. */
function httpDate(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== lastHttpDate.second) lastHttpDate = { second, text: new Date(second * 1000).toUTCString() };
  return lastHttpDate.text;
}

/** GET /v1.0/ and /v1.1/ (and the legacy /url): the count object for one URL. */
export function countsHandler(deps: ApiDeps, version: ApiVersion) {
  const answer = countingRefusals(deps, (account: AccountContext, req: IncomingMessage, params: QueryParams, callback: string | undefined) => {
    const target = parseCached(params.get("url") ?? "");
    if (!target.ok) throw apiErrors.invalidUrl(params.has("url") ? target.reason : "the url parameter is required");
    const ttl = customTtl(params, deps.limits.maxCustomTtlSeconds);
    if (ttl !== undefined && !account.plan.customTtlAllowed) throw apiErrors.customTtlNotAllowed(account.plan.name);
    const query = { host: target.url.hostname, normalized: target.normalized };
    return paidQuery(deps, account, query, version, () => deps.counts.lookup(target.normalized, ttl)).then(({ result: lookup, remaining }) => {
      // Answered: its query was paid (a refusal throws, and a failed lookup gives its query back).
      spendQuota(req, 1);
      const headers = countHeaders(lookup, ttl, remaining, deps.sandbox || lookup.sandbox);
      return sendJson(200, countJson(lookup.counts, version), { callback, headers });
    });
  });
  return endpoint("answer", ({ req, params, callback }) => {
    if (callback && params.has("_")) throw apiErrors.noJqueryCacheBusting();
    return andThen(deps.auth.authenticate(req, apiKeyParam(params), "counts:read"), (account) => answer(account, req, params, callback));
  });
}
