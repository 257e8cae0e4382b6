import type { IncomingMessage } from "node:http";
import type { ApiDeps } from "../../api-deps.ts";
import { readJsonBody } from "../../http/json-body.ts";
import { targetPath } from "../../http/paths.ts";
import { noContent, send } from "../../http/respond.ts";
import { validQuery } from "../../http/validate.ts";
import type { WebhookEndpoint } from "../../../lib/webhooks/endpoint-store.ts";
import { webhookErrors } from "../../../lib/webhooks/webhook-errors.ts";
import {
  createEndpoint,
  deleteEndpoint,
  deliveryLog,
  endpointOf,
  retryDelivery,
  rollSecret,
  sendTestEvent,
  updateEndpoint,
  type WebhookContext,
} from "../../../lib/webhooks/webhook-endpoints.ts";
import { deliveriesQuerySchema, webhookCreateBodySchema, webhookKeyQuerySchema, webhookUpdateBodySchema } from "../../../lib/v2/webhook-schemas.ts";
import { iso, v2Endpoint } from "./v2-endpoint.ts";

/** A webhook request body is a URL, a few event types and a note: far below this. */
export const MAX_WEBHOOK_BODY_BYTES = 64 * 1024;

/** An answer carrying a secret: no cache along the way may keep it. */
const SECRET_HEADERS = { headers: { "Cache-Control": "no-store" } };

const context = (deps: ApiDeps): WebhookContext => ({ alerts: deps.alerts, allowPrivateHosts: deps.allowPrivateWebhookHosts, limits: deps.webhookLimits });

/** The `{id}` and `{delivery_id}` of a `/v2/webhooks/{id}/deliveries/{delivery_id}/retry` request (or a shorter one). */
function idsOf(req: IncomingMessage): { id: string; deliveryId: string } {
  const [, , , id = "", , deliveryId = ""] = targetPath(req.url!).split("/");
  try {
    return { id: decodeURIComponent(id), deliveryId: decodeURIComponent(deliveryId) };
  } catch {
    throw webhookErrors.notFound();
  }
}

const endpointJson = (endpoint: WebhookEndpoint) => ({
  id: endpoint.id,
  url: endpoint.url,
  events: endpoint.events,
  format: endpoint.format,
  description: endpoint.description,
  enabled: endpoint.enabled,
  disabled_reason: endpoint.disabledReason,
  created_at: iso(endpoint.createdAt),
  last_success_at: iso(endpoint.lastSuccessAt),
});

/** POST /v2/webhooks: a new endpoint (at most 20 per account), with its secret, shown only here. */
export const v2CreateWebhookHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, "account:write", async (account, { req, params }) => {
    validQuery(webhookKeyQuerySchema, params);
    const body = await readJsonBody(req, webhookCreateBodySchema, MAX_WEBHOOK_BODY_BYTES);
    const { endpoint, secret } = await createEndpoint(context(deps), account.id, body, deps.audit.sourceOf(req, account));
    return send(201, { ...endpointJson(endpoint), secret }, SECRET_HEADERS);
  });

/** GET /v2/webhooks: the account's endpoints, oldest first, without secrets. */
export const v2WebhookListHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, "account:read", async (account, { params }) => {
    validQuery(webhookKeyQuerySchema, params);
    return send(200, { data: (await deps.alerts.endpoints.list(account.id)).map(endpointJson) });
  });

/** GET /v2/webhooks/{id} */
export const v2WebhookHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, "account:read", async (account, { req, params }) => {
    validQuery(webhookKeyQuerySchema, params);
    return send(200, endpointJson(await endpointOf(context(deps), account.id, idsOf(req).id)));
  });

/** PATCH /v2/webhooks/{id}: changes its url, events, enabled or description. */
export const v2UpdateWebhookHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, "account:write", async (account, { req, params }) => {
    validQuery(webhookKeyQuerySchema, params);
    const change = await readJsonBody(req, webhookUpdateBodySchema, MAX_WEBHOOK_BODY_BYTES);
    return send(200, endpointJson(await updateEndpoint(context(deps), account.id, idsOf(req).id, change, deps.audit.sourceOf(req, account))));
  });

/** DELETE /v2/webhooks/{id}: 204; its pending deliveries and log go with it. */
export const v2DeleteWebhookHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, "account:write", async (account, { req, params }) => {
    validQuery(webhookKeyQuerySchema, params);
    await deleteEndpoint(context(deps), account.id, idsOf(req).id, deps.audit.sourceOf(req, account));
    return noContent(204);
  });

/** POST /v2/webhooks/{id}/secret: a new secret (shown only here); the old one signs beside it for 24 hours. */
export const v2RollWebhookSecretHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, "account:write", async (account, { req, params }) => {
    validQuery(webhookKeyQuerySchema, params);
    const { id } = idsOf(req);
    const rolled = await rollSecret(context(deps), account.id, id, deps.clock.now());
    return send(200, { id, secret: rolled.secret, previous_secret_expires_at: iso(rolled.previousUntil) }, SECRET_HEADERS);
  });

/** POST /v2/webhooks/{id}/test: a `webhook.test` event to this endpoint only, sent at once. */
export const v2TestWebhookHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, "account:write", async (account, { req, params }) => {
    validQuery(webhookKeyQuerySchema, params);
    const eventId = await sendTestEvent(context(deps), account.id, idsOf(req).id, deps.clock.now());
    deps.webhooksQueued();
    return send(202, { event_id: eventId });
  });

/** GET /v2/webhooks/{id}/deliveries: the endpoint's attempts, newest first, a page at a time. */
export const v2WebhookDeliveriesHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, "account:read", async (account, { req, params }) => {
    const query = validQuery(deliveriesQuerySchema, params);
    const page = await deliveryLog(context(deps), account.id, idsOf(req).id, query);
    return send(200, {
      data: page.attempts.map((attempt) => ({
        id: attempt.id,
        event_id: attempt.eventId,
        type: attempt.type,
        attempt: attempt.attempt,
        status_code: attempt.statusCode,
        ok: attempt.ok,
        duration_ms: attempt.durationMs,
        error: attempt.error,
        created_at: iso(attempt.createdAt),
        next_attempt_at: iso(attempt.nextAttemptAt),
      })),
      next_cursor: page.next,
    });
  });

/** POST /v2/webhooks/{id}/deliveries/{delivery_id}/retry: sends that attempt's event to the endpoint again now. */
export const v2RetryWebhookDeliveryHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, "account:write", async (account, { req, params }) => {
    validQuery(webhookKeyQuerySchema, params);
    const { id, deliveryId } = idsOf(req);
    const retried = await retryDelivery(context(deps), account.id, id, deliveryId, deps.clock.now());
    deps.webhooksQueued();
    return send(202, { event_id: retried.eventId, status: retried.status });
  });
