import type { AuditSource } from "../audit/actor.ts";
import { recordAudit } from "../audit/record.ts";
import type { WebhookEndpoint, WithinEndpointChange } from "./endpoint-store.ts";

/**
 * The audit events of an endpoint's changes: where it points (its host only: a URL's path or query may carry
 * the receiver's own token) and what it listens to. Never its signing secret.
 */
const hostOf = (url: string) => URL.parse(url)?.hostname ?? "";
const shape = (endpoint: WebhookEndpoint) => ({ endpoint_id: endpoint.id, host: hostOf(endpoint.url), events: endpoint.events });

export function auditEndpointChange(accountId: string, source: AuditSource): WithinEndpointChange {
  return async (tx, before, after) => {
    const entry = { accountId, ...source };
    if (!before && after) return recordAudit(tx, { ...entry, action: "webhook.created", changes: shape(after) });
    if (before && !after) return recordAudit(tx, { ...entry, action: "webhook.deleted", changes: shape(before) });
    if (!before || !after) return;
    const fields = (["url", "events", "enabled", "description"] as const).filter((field) => String(before[field]) !== String(after[field]));
    const moved = hostOf(before.url) !== hostOf(after.url);
    const changes = { ...shape(after), fields, ...(fields.includes("enabled") ? { enabled: after.enabled } : {}), ...(moved ? { host_before: hostOf(before.url) } : {}) };
    return recordAudit(tx, { ...entry, action: "webhook.updated", changes });
  };
}
