import type { IncomingMessage } from "node:http";
import type { RequestLogRow } from "../../../lib/store/requests.ts";
import { requestKeyQuerySchema, requestsQuerySchema } from "../../../lib/v2/request-schemas.ts";
import type { ApiDeps } from "../../api-deps.ts";
import { targetPath } from "../../http/paths.ts";
import { send } from "../../http/respond.ts";
import { validQuery } from "../../http/validate.ts";
import { listRequests, requestOf } from "../../requests/list-requests.ts";
import { iso, v2Endpoint } from "./v2-endpoint.ts";

const requestJson = (row: RequestLogRow) => ({
  id: row.id,
  time: iso(row.time),
  key_id: row.keyId,
  method: row.method,
  path: row.path,
  query: row.query,
  status: row.status,
  error_type: row.errorType,
  duration_ms: row.durationMs,
  url: row.url,
  quota_spent: row.quotaSpent,
  ip: row.ip,
  user_agent: row.userAgent,
});

/** GET /v2/requests: the account's API requests, newest first, filtered, a page at a time. */
export const v2RequestsHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, "account:read", async (account, { params }) => {
    const { apikey: _key, error_type, key_id, ...query } = validQuery(requestsQuerySchema, params);
    const page = await listRequests(deps.store.requests, account.id, { ...query, errorType: error_type, keyId: key_id });
    return send(200, { data: page.requests.map(requestJson), next_cursor: page.next });
  });

/** The `{id}` of `/v2/requests/{id}`. */
function idOf(req: IncomingMessage): string {
  const id = targetPath(req.url!).split("/")[3] ?? "";
  try {
    return decodeURIComponent(id);
  } catch {
    return "";
  }
}

/** GET /v2/requests/{id}: one of the account's requests (404 for any other). */
export const v2RequestHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, "account:read", async (account, { req, params }) => {
    validQuery(requestKeyQuerySchema, params);
    return send(200, requestJson(await requestOf(deps.store.requests, account.id, idOf(req))));
  });
