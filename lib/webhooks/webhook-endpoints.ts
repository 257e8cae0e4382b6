import type { z } from "zod";
import type { AlertKit } from "../alerts/open-alerts.ts";
import { MAX_ENDPOINTS_PER_ACCOUNT, type webhookCreateBodySchema, type webhookUpdateBodySchema } from "../v2/webhook-schemas.ts";
import type { DeliveryAttempt } from "./delivery-store.ts";
import type { WebhookEndpoint } from "./endpoint-store.ts";
import { WebhookError, webhookErrors } from "./webhook-errors.ts";
import type { WebhookLimits } from "./webhook-limits.ts";
import { webhookUrlRefusal } from "./webhook-url.ts";
import type { AuditSource } from "../audit/actor.ts";
import { auditEndpointChange } from "./webhook-audit.ts";

/**
 * What an account does with its webhook endpoints (API v2, which the dashboard calls too): each verb checks
 * its input, and that the endpoint is the account's (another account's is not found, as none is).
 */
export interface WebhookContext {
  alerts: AlertKit;
  /** WEBHOOK_ALLOW_PRIVATE_HOSTS: endpoints on loopback and private addresses (tests, closed networks). */
  allowPrivateHosts: boolean;
  /** How many tests and retries each account may ask for a minute. */
  limits: WebhookLimits;
}

/** How long the secret before a roll keeps signing beside the new one, so receivers can switch without a gap. */
export const PREVIOUS_SECRET_MS = 24 * 3_600_000;

export const TEST_MESSAGE = "A test event from sharecount: this endpoint receives its events.";

function checkUrl(context: WebhookContext, url: string): void {
  const refusal = webhookUrlRefusal(url, context.allowPrivateHosts);
  if (refusal) throw new WebhookError("invalid_url", `url: ${refusal}.`);
}

export async function createEndpoint(
  context: WebhookContext,
  accountId: string,
  body: z.output<typeof webhookCreateBodySchema>,
  audit: AuditSource,
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  checkUrl(context, body.url);
  const input = { url: body.url, events: body.events, format: body.format, description: body.description ?? null };
  const created = await context.alerts.endpoints.createWithin(MAX_ENDPOINTS_PER_ACCOUNT, accountId, input, audit.at, auditEndpointChange(accountId, audit));
  if (!created) throw webhookErrors.tooMany(MAX_ENDPOINTS_PER_ACCOUNT);
  return created;
}

export async function endpointOf(context: WebhookContext, accountId: string, id: string): Promise<WebhookEndpoint> {
  const endpoint = await context.alerts.endpoints.get(accountId, id);
  if (!endpoint) throw webhookErrors.notFound();
  return endpoint;
}

export async function updateEndpoint(
  context: WebhookContext,
  accountId: string,
  id: string,
  change: z.output<typeof webhookUpdateBodySchema>,
  audit: AuditSource,
): Promise<WebhookEndpoint> {
  if (change.url !== undefined) checkUrl(context, change.url);
  const endpoint = await context.alerts.endpoints.update(accountId, id, change, auditEndpointChange(accountId, audit));
  if (!endpoint) throw webhookErrors.notFound();
  return endpoint;
}

export async function deleteEndpoint(context: WebhookContext, accountId: string, id: string, audit: AuditSource): Promise<void> {
  if (!(await context.alerts.endpoints.delete(accountId, id, auditEndpointChange(accountId, audit)))) throw webhookErrors.notFound();
}

/** A new secret; the old one signs beside it for PREVIOUS_SECRET_MS. */
export async function rollSecret(context: WebhookContext, accountId: string, id: string, now: number): Promise<{ secret: string; previousUntil: number }> {
  const previousUntil = now + PREVIOUS_SECRET_MS;
  const secret = await context.alerts.endpoints.rollSecret(accountId, id, previousUntil);
  if (secret) return { secret, previousUntil };
  await endpointOf(context, accountId, id);
  throw webhookErrors.rollConflict();
}

/**
 * Emits a `webhook.test` event, delivered to this endpoint only; its id. A disabled endpoint is sent nothing.
 * Each call counts against the account's tests per minute, refused or not (taken first, so none slips past).
 */
export async function sendTestEvent(context: WebhookContext, accountId: string, id: string, now: number): Promise<string> {
  await context.limits.take("test", accountId);
  const endpoint = await endpointOf(context, accountId, id);
  if (!endpoint.enabled) throw webhookErrors.disabled(endpoint.disabledReason);
  const event = await context.alerts.alerts.emit({ accountId, type: "webhook.test", data: { endpoint_id: id, message: TEST_MESSAGE } }, now);
  // Null: the endpoint (or its account) was deleted meanwhile, so its delivery could not be written.
  if (!event) throw webhookErrors.notFound();
  return event.id;
}

/** The cursor of a delivery log page: where the previous one ended. */
const encodeCursor = (at: { createdAt: number; id: string }) => Buffer.from(`${at.createdAt}.${at.id}`).toString("base64url");

/** The last millisecond the stores can hold (9999-12-31T23:59:59.999Z); Prisma fails on a later one. */
const LAST_STORABLE_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** A forged or mangled cursor is refused as a bad parameter, never handed to the store. */
function decodeCursor(cursor: string): { createdAt: number; id: string } {
  const match = /^(\d{1,15})\.([\w-]{1,100})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  const before = match ? { createdAt: Number(match[1]), id: match[2]! } : null;
  // Base64 decoding skips what is not base64: only a cursor this log could have written is taken.
  if (!before || before.createdAt > LAST_STORABLE_MS || encodeCursor(before) !== cursor) {
    throw new WebhookError("invalid_parameter", "cursor: not a next_cursor of this endpoint's deliveries.");
  }
  return before;
}

/** A page of the endpoint's attempts, newest first, and the cursor of the next page (null: none). */
export async function deliveryLog(
  context: WebhookContext,
  accountId: string,
  id: string,
  page: { limit: number; cursor?: string },
): Promise<{ attempts: DeliveryAttempt[]; next: string | null }> {
  const before = page.cursor === undefined ? undefined : decodeCursor(page.cursor);
  await endpointOf(context, accountId, id);
  const rows = await context.alerts.deliveries.attempts(id, page.limit + 1, before);
  const attempts = rows.slice(0, page.limit);
  return { attempts, next: rows.length > page.limit ? encodeCursor(attempts.at(-1)!) : null };
}

/**
 * Sends a delivery's event again now. `deliveryId` is an attempt's id from the delivery log (its delivery is
 * sent again), or a delivery's own. A retry is one more attempt: of a delivery still in its schedule it
 * takes the next scheduled try's place (counting towards the 8; a failure goes on with the schedule from there),
 * of one that ended it is a single further try. Each call counts against the account's retries per minute.
 */
export async function retryDelivery(
  context: WebhookContext,
  accountId: string,
  id: string,
  deliveryId: string,
  now: number,
): Promise<{ eventId: string; status: "queued" | "in_flight" }> {
  await context.limits.take("retry", accountId);
  const endpoint = await endpointOf(context, accountId, id);
  const delivery = await context.alerts.deliveries.deliveryOf(id, deliveryId);
  if (!delivery) throw webhookErrors.deliveryNotFound();
  if (!endpoint.enabled) throw webhookErrors.disabled(endpoint.disabledReason);
  const status = await context.alerts.deliveries.retryNow(accountId, id, delivery.id, now);
  if (!status) throw webhookErrors.deliveryNotFound();
  return { eventId: delivery.eventId, status };
}
