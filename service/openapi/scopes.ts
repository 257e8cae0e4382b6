import type { RouteConfig } from "@asteasolutions/zod-to-openapi";
import type { Scope } from "../../lib/keys/scopes.ts";
import { refusals } from "./refusals.ts";

/**
 * The scope each operation needs (null: no key at all). Every documented operation must be listed: the
 * document is not built otherwise, and test/v2/scopes.test.ts calls each operation with keys lacking and
 * holding its scope, so this table and the routes cannot disagree.
 */
const v1 = (version: string): Record<string, Scope | null> => ({
  [`GET /v${version}/`]: "counts:read",
  [`POST /v${version}/bulk`]: "bulk:write",
  [`GET /v${version}/bulk`]: "bulk:read",
  [`GET /v${version}/quota`]: "account:read",
  [`GET /v${version}/usage`]: "account:read",
  [`GET /v${version}/domain_whitelist`]: "account:read",
  [`GET /v${version}/status`]: null,
});

export const OPERATION_SCOPES: Record<string, Scope | null> = {
  ...v1("1.0"),
  ...v1("1.1"),
  "GET /v2/counts": "counts:read",
  "GET /v2/history": "counts:read",
  "GET /v2/history.csv": "counts:read",
  "GET /v2/networks": "account:read",
  "POST /v2/bulk": "bulk:write",
  "GET /v2/bulk": "bulk:read",
  "GET /v2/tracked": "tracked:read",
  "GET /v2/tracked/url": "tracked:read",
  "GET /v2/tracked/status": "tracked:read",
  "POST /v2/tracked": "tracked:write",
  "DELETE /v2/tracked": "tracked:write",
  "PUT /v2/tracked/aliases": "tracked:write",
  "GET /v2/imports/{id}": "tracked:read",
  "DELETE /v2/imports/{id}": "tracked:write",
  "GET /v2/usage": "account:read",
  "GET /v2/events": "account:read",
  "GET /v2/audit": "account:read",
  "GET /v2/requests": "account:read",
  "GET /v2/requests/{id}": "account:read",
  "GET /v2/account/export": "account:write",
  "GET /v2/webhooks": "account:read",
  "GET /v2/webhooks/{id}": "account:read",
  "GET /v2/webhooks/{id}/deliveries": "account:read",
  "POST /v2/webhooks": "account:write",
  "PATCH /v2/webhooks/{id}": "account:write",
  "DELETE /v2/webhooks/{id}": "account:write",
  "POST /v2/webhooks/{id}/secret": "account:write",
  "POST /v2/webhooks/{id}/test": "account:write",
  "POST /v2/webhooks/{id}/deliveries/{delivery_id}/retry": "account:write",
  "GET /v2/keys": "keys:write",
  "POST /v2/keys": "keys:write",
  "GET /v2/keys/{id}": "keys:write",
  "DELETE /v2/keys/{id}": "keys:write",
  "POST /v2/keys/{id}/roll": "keys:write",
};

export const operationKey = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

const INSUFFICIENT_SCOPE = "`insufficient_scope`: the key lacks the scope this endpoint needs";

/** The operation with its security (the scope named on each scheme), its scope in words, and the 403 a key without it gets. */
export function withScope(config: RouteConfig): RouteConfig {
  const key = operationKey(config.method, config.path);
  const scope = OPERATION_SCOPES[key];
  if (scope === undefined) throw new Error(`${key} names no scope: add it to service/openapi/scopes.ts`);
  if (scope === null) return config;
  const schemes = config.path.startsWith("/v2/") ? ["apikey", "bearer"] : ["apikey"];
  const forbidden = config.responses[403] as { description: string } | undefined;
  return {
    ...config,
    security: schemes.map((scheme) => ({ [scheme]: [scope] })),
    description: `${config.description ? `${config.description}\n\n` : ""}Needs a key with the scope \`${scope}\`.`,
    responses: { ...config.responses, ...refusals({ 403: forbidden ? `${forbidden.description}; ${INSUFFICIENT_SCOPE}` : INSUFFICIENT_SCOPE }) },
  };
}
