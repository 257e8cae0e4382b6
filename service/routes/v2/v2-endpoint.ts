import type { IncomingMessage } from "node:http";
import type { NetworkId } from "../../../lib/counts/all-networks.ts";
import type { AccountContext } from "../../../lib/store/accounts.ts";
import type { ApiDeps } from "../../api-deps.ts";
import type { Scope } from "../../../lib/keys/scopes.ts";
import type { Authenticated } from "../../http/auth.ts";
import { endpoint, type Endpoint, type EndpointRequest } from "../../http/endpoint.ts";
import { ApiError } from "../../http/errors.ts";
import { apiKeyParam, plainRequestQuery, type QueryParams } from "../../http/query.ts";
import type { Answer, StreamedBody } from "../../http/respond.ts";
import { andThen, type Maybe } from "../../../lib/maybe.ts";

/** JSON bodies of v2 (10,000 URLs of a typical length fit; longer lists go in several requests or a sitemap). */
export const MAX_V2_BODY_BYTES = 4 * 1024 * 1024;

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

type V2Handler<Body extends string | StreamedBody> = (account: Authenticated, request: EndpointRequest) => Maybe<Answer<Body>>;

/**
 * A v2 endpoint: JSON only (JSONP stays a v1 feature), authenticated by bearer token or `apikey`, with a key
 * that has the scope the endpoint needs (the OpenAPI document says which: service/openapi/scopes.ts).
 */
export function v2Endpoint<Body extends string | StreamedBody = string>(deps: ApiDeps, scope: Scope, answer: V2Handler<Body>): Endpoint<Body | string> {
  return endpoint("refuse", (request) => andThen(deps.auth.authenticate(request.req, v2Key(request.req, request.params), scope), (account) => answer(account, request)), plainRequestQuery);
}

export const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());

/**
 * The networks a v2 request asks or answers: those it names, else those the account shows (what every v2
 * answer carries, and what totals sum); each must be one this service asks.
 */
export function networksAsked(deps: ApiDeps, account: AccountContext, named: readonly NetworkId[] | undefined): NetworkId[] {
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
