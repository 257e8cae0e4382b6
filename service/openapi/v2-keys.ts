import type { RouteConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { MAX_KEYS } from "../../lib/keys/api-keys.ts";
import { issuedKeySchema, keyCreateBodySchema, keyListSchema, keyQuerySchema, keyRollBodySchema, keySchema } from "../../lib/v2/key-schemas.ts";
import { v2Refusals } from "./refusals.ts";

const json = (schema: z.ZodType, description: string) => ({ description, content: { "application/json": { schema } } });
const body = (schema: z.ZodType) => ({ content: { "application/json": { schema } } });
const keyId = z.object({ id: z.string().meta({ description: "The key's id (key_…)" }) });
const NOT_FOUND = "`key_not_found`: no such key of this account";
const BODY = { 413: "`body_too_large`: the body is over 16 KiB", 415: "`invalid_body`: the body is not sent as `application/json`" } as const;
const GRANTS = "`insufficient_scope`: the key would have a scope the calling key lacks";

/** The key routes of API v2 (service/routes/v2/keys.ts). */
export function registerKeyPaths(path: (config: RouteConfig) => void, security: Record<string, string[]>[]) {
  const tags = ["v2"];
  const route = (config: Omit<RouteConfig, "tags" | "security">) => path({ ...config, tags, security });
  route({
    method: "post",
    path: "/v2/keys",
    summary: `Create a key with a name, scopes and an optional expiry (at most ${MAX_KEYS} per account); the key is shown only in this answer`,
    request: { query: keyQuerySchema, body: body(keyCreateBodySchema) },
    responses: {
      201: json(issuedKeySchema, "The key, with its value"),
      ...v2Refusals({ 400: `\`invalid_body\`: not this shape, or an expiry in the past; \`too_many_keys\`: the account has ${MAX_KEYS} live keys already (revoked and expired ones do not count)`, 403: GRANTS, ...BODY }),
    },
  });
  route({
    method: "get",
    path: "/v2/keys",
    summary: "The account's keys, newest first (never a key's value)",
    request: { query: keyQuerySchema },
    responses: { 200: json(keyListSchema, "The keys"), ...v2Refusals() },
  });
  route({
    method: "get",
    path: "/v2/keys/{id}",
    summary: "One key (never its value)",
    request: { params: keyId, query: keyQuerySchema },
    responses: { 200: json(keySchema, "The key"), ...v2Refusals({ 404: NOT_FOUND }) },
  });
  route({
    method: "delete",
    path: "/v2/keys/{id}",
    summary: "Revoke a key: it is refused from the next request on, by every API process within 2 seconds; the account is mailed",
    request: { params: keyId, query: keyQuerySchema },
    responses: { 200: json(keySchema, "The key, revoked"), ...v2Refusals({ 403: "`insufficient_scope`: the key to revoke has a scope the calling key lacks", 404: NOT_FOUND }) },
  });
  route({
    method: "post",
    path: "/v2/keys/{id}/roll",
    summary: "A new key with the same name, scopes and expiry; the old one keeps working for `grace_seconds` (default a day), then answers `api_key_expired`; the account is mailed",
    request: { params: keyId, query: keyQuerySchema, body: { ...body(keyRollBodySchema), required: false } },
    responses: {
      201: json(issuedKeySchema, "The new key, with its value"),
      ...v2Refusals({ 400: "`invalid_body`: not this shape", 403: GRANTS, 404: NOT_FOUND, 409: "`key_not_rollable`: the key is revoked, expired or already rolled (roll its replacement)", ...BODY }),
    },
  });
}
