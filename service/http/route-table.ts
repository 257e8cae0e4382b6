import type { HttpBindings } from "@hono/node-server";
import { Hono, type Handler } from "hono";
import type { ApiVersion } from "../counts/count-object.ts";
import type { ApiDeps } from "../api-deps.ts";
import type { Endpoint } from "./endpoint.ts";
import { apiErrors, toApiError } from "./errors.ts";
import { canonicalPath } from "./paths.ts";
import { setRoute } from "./route-label.ts";
import { sendError, toResponse, type StreamedBody } from "./respond.ts";
import { domainWhitelistHandler, quotaHandler, statusHandler, usageHandler } from "../routes/account.ts";
import { retrieveBulkHandler, submitBulkHandler } from "../routes/bulk.ts";
import { countsHandler } from "../routes/counts.ts";
import { v2CountsHandler, v2NetworksHandler } from "../routes/v2/counts.ts";
import { v2BulkRetrieveHandler, v2BulkSubmitHandler } from "../routes/v2/bulk.ts";
import { v2HistoryCsvHandler, v2HistoryHandler } from "../routes/v2/history.ts";
import { v2ImportHandler, v2CancelImportHandler } from "../routes/v2/imports.ts";
import { v2UsageHandler } from "../routes/v2/usage.ts";
import { v2AccountExportHandler } from "../routes/v2/account.ts";
import { v2AliasesHandler, v2TrackedUrlHandler, v2TrackedStatusHandler, v2TrackedListHandler, v2TrackHandler, v2UntrackHandler } from "../routes/v2/tracked.ts";
import {
  v2CreateWebhookHandler,
  v2DeleteWebhookHandler,
  v2RetryWebhookDeliveryHandler,
  v2RollWebhookSecretHandler,
  v2TestWebhookHandler,
  v2UpdateWebhookHandler,
  v2WebhookDeliveriesHandler,
  v2WebhookHandler,
  v2WebhookListHandler,
} from "../routes/v2/webhooks.ts";
import { v2EventsHandler } from "../routes/v2/events.ts";
import { v2CreateKeyHandler, v2KeyHandler, v2KeyListHandler, v2RevokeKeyHandler, v2RollKeyHandler } from "../routes/v2/keys.ts";
import { v2AuditHandler } from "../routes/v2/audit.ts";
import { openApiDocument } from "../openapi/document.ts";
import { sendJson } from "./respond.ts";
import type { RequestLog } from "../requests/request-log.ts";
import { v2RequestHandler, v2RequestsHandler } from "../routes/v2/requests.ts";

type HonoApp = Hono<{ Bindings: HttpBindings }>;

/** Every route of the share-count API; api-listener.ts serves them (in-process, standalone, and in tests). */
export interface ApiRoutes {
  /**
   * The single-URL count endpoints (GET only) by canonical path: /v1.0/ and /v1.1/, the legacy /url (also
   * requested as /v1.0//url) and the original service's root form `/?url=…`, answered as v1.0 (it reaches the
   * API only with a URL or key: see paths.ts).
   */
  counts: ReadonlyMap<string, Endpoint>;
  /** Every other endpoint, routed by Hono. */
  app: HonoApp;
  /** Where answered requests are logged (null: REQUEST_LOG=off). */
  requestLog: RequestLog | null;
}

/** A Hono handler answering with an endpoint: the request it reads is Node's own, labelled with the route's pattern. */
const viaHono =
  (pattern: string, answer: Endpoint<string | StreamedBody>): Handler<{ Bindings: HttpBindings }> =>
  async (c) => {
    setRoute(c.env.incoming, pattern);
    return toResponse(await answer(c.env.incoming));
  };

export function createApiRoutes(deps: ApiDeps): ApiRoutes {
  const counts10 = countsHandler(deps, "1.0");
  const counts = new Map<string, Endpoint>([
    ["/v1.0", counts10],
    ["/v1.1", countsHandler(deps, "1.1")],
    ["/url", counts10],
    ["/v1.0/url", counts10],
    ["/", counts10],
  ]);

  const app: HonoApp = new Hono({
    getPath: (request) => {
      const url = request.url;
      const start = url.indexOf("/", url.indexOf("//") + 2);
      const end = url.indexOf("?", start);
      return canonicalPath(start === -1 ? "/" : url.slice(start, end === -1 ? undefined : end));
    },
  });

  // A POST handler reads its body itself, as a stream bounded by BULK_MAX_BODY_BYTES (see bulk/body/read-body.ts).
  const route = (path: string, handlers: { GET?: Endpoint<string | StreamedBody>; POST?: Endpoint; PUT?: Endpoint; PATCH?: Endpoint; DELETE?: Endpoint }) => {
    const allow = Object.keys(handlers).join(", ");
    if (handlers.GET) app.get(path, viaHono(path, handlers.GET));
    if (handlers.POST) app.post(path, viaHono(path, handlers.POST));
    if (handlers.PUT) app.put(path, viaHono(path, handlers.PUT));
    if (handlers.PATCH) app.patch(path, viaHono(path, handlers.PATCH));
    if (handlers.DELETE) app.delete(path, viaHono(path, handlers.DELETE));
    app.all(path, (c) => {
      setRoute(c.env.incoming, path);
      return toResponse(sendError(apiErrors.methodNotAllowed(allow)));
    });
  };

  for (const version of ["1.0", "1.1"] as ApiVersion[]) {
    const prefix = `/v${version}`;
    route(`${prefix}/bulk`, { GET: retrieveBulkHandler(deps, version), POST: submitBulkHandler(deps, version) });
    route(`${prefix}/quota`, { GET: quotaHandler(deps) });
    route(`${prefix}/usage`, { GET: usageHandler(deps) });
    route(`${prefix}/domain_whitelist`, { GET: domainWhitelistHandler(deps) });
    route(`${prefix}/status`, { GET: statusHandler(deps) });
  }
  // Legacy paths: unversioned /bulk, and the original service's account paths at the root, answered as v1.0.
  route("/bulk", { GET: retrieveBulkHandler(deps, "1.0"), POST: submitBulkHandler(deps, "1.0") });
  route("/quota", { GET: quotaHandler(deps) });
  route("/get_quota", { GET: quotaHandler(deps) });
  route("/usage", { GET: usageHandler(deps) });
  route("/domain_whitelist", { GET: domainWhitelistHandler(deps) });
  route("/status", { GET: statusHandler(deps) });

  route("/v2/counts", { GET: v2CountsHandler(deps) });
  route("/v2/networks", { GET: v2NetworksHandler(deps) });
  route("/v2/bulk", { GET: v2BulkRetrieveHandler(deps), POST: v2BulkSubmitHandler(deps) });
  route("/v2/tracked", { GET: v2TrackedListHandler(deps), POST: v2TrackHandler(deps), DELETE: v2UntrackHandler(deps) });
  route("/v2/tracked/url", { GET: v2TrackedUrlHandler(deps) });
  route("/v2/tracked/status", { GET: v2TrackedStatusHandler(deps) });
  route("/v2/tracked/aliases", { PUT: v2AliasesHandler(deps) });
  route("/v2/imports/:id", { GET: v2ImportHandler(deps), DELETE: v2CancelImportHandler(deps) });
  route("/v2/history", { GET: v2HistoryHandler(deps) });
  route("/v2/history.csv", { GET: v2HistoryCsvHandler(deps) });
  route("/v2/usage", { GET: v2UsageHandler(deps) });
  route("/v2/account/export", { GET: v2AccountExportHandler(deps) });
  route("/v2/audit", { GET: v2AuditHandler(deps) });
  route("/v2/webhooks", { GET: v2WebhookListHandler(deps), POST: v2CreateWebhookHandler(deps) });
  route("/v2/webhooks/:id", { GET: v2WebhookHandler(deps), PATCH: v2UpdateWebhookHandler(deps), DELETE: v2DeleteWebhookHandler(deps) });
  route("/v2/webhooks/:id/secret", { POST: v2RollWebhookSecretHandler(deps) });
  route("/v2/webhooks/:id/test", { POST: v2TestWebhookHandler(deps) });
  route("/v2/webhooks/:id/deliveries", { GET: v2WebhookDeliveriesHandler(deps) });
  route("/v2/webhooks/:id/deliveries/:delivery_id/retry", { POST: v2RetryWebhookDeliveryHandler(deps) });
  route("/v2/events", { GET: v2EventsHandler(deps) });
  route("/v2/keys", { GET: v2KeyListHandler(deps), POST: v2CreateKeyHandler(deps) });
  route("/v2/keys/:id", { GET: v2KeyHandler(deps), DELETE: v2RevokeKeyHandler(deps) });
  route("/v2/keys/:id/roll", { POST: v2RollKeyHandler(deps) });
  route("/v2/requests", { GET: v2RequestsHandler(deps) });
  route("/v2/requests/:id", { GET: v2RequestHandler(deps) });
  route("/v2/openapi.json", { GET: async () => sendJson(200, openApiDocument()) });

  app.notFound(() => toResponse(sendError(apiErrors.notFound())));
  app.onError((error) => toResponse(sendError(toApiError(error))));
  return { counts, app, requestLog: deps.requestLog };
}
