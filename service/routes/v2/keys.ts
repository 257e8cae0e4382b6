import type { IncomingMessage } from "node:http";
import type { ApiKeyRecord, IssuedKey } from "../../../lib/keys/api-keys.ts";
import { keyErrors } from "../../../lib/keys/key-errors.ts";
import { keyNotices } from "../../../lib/keys/key-notices.ts";
import { issuedKeySchema, keyCreateBodySchema, keyQuerySchema, keyRollBodySchema } from "../../../lib/v2/key-schemas.ts";
import type { ApiDeps } from "../../api-deps.ts";
import { ApiError } from "../../http/errors.ts";
import { readJsonBody } from "../../http/json-body.ts";
import { targetPath } from "../../http/paths.ts";
import { send } from "../../http/respond.ts";
import { validQuery } from "../../http/validate.ts";
import { iso, v2Endpoint } from "./v2-endpoint.ts";

const MAX_KEY_BODY_BYTES = 16 * 1024;

/** An answer carrying a key: no cache along the way may keep it. */
const SECRET_HEADERS = { headers: { "Cache-Control": "no-store" } };

/** The `{id}` of `/v2/keys/{id}` or `/v2/keys/{id}/roll`. */
function keyIdOf(req: IncomingMessage): string {
  const id = targetPath(req.url!).split("/")[3] ?? "";
  try {
    return decodeURIComponent(id);
  } catch {
    throw keyErrors.notFound();
  }
}

const keyJson = (key: ApiKeyRecord) => ({
  id: key.id,
  name: key.name,
  prefix: key.prefix,
  scopes: key.scopes,
  created_at: iso(key.createdAt),
  last_used_at: iso(key.lastUsedAt),
  expires_at: iso(key.expiresAt),
  revoked_at: iso(key.revokedAt),
});

const issuedJson = ({ key, record }: IssuedKey) =>
  issuedKeySchema.parse({ id: record.id, name: record.name, key, prefix: record.prefix, scopes: record.scopes, created_at: iso(record.createdAt), expires_at: iso(record.expiresAt) });

/** POST /v2/keys: a new key with the scopes named (only those the calling key has), shown only in this answer. */
export const v2CreateKeyHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, "keys:write", async (account, { req, params }) => {
    validQuery(keyQuerySchema, params);
    const body = await readJsonBody(req, keyCreateBodySchema, MAX_KEY_BODY_BYTES);
    const source = deps.audit.sourceOf(req, account);
    const expiresAt = body.expires_at ? Date.parse(body.expires_at) : null;
    if (expiresAt !== null && expiresAt <= source.at) throw new ApiError("invalid_body", 400, "expires_at must be in the future.");
    const issued = await deps.keys.verbs.create(account.id, { name: body.name, scopes: body.scopes, expiresAt }, account.scopes, source);
    return send(201, issuedJson(issued), SECRET_HEADERS);
  });

/** GET /v2/keys: every key of the account, newest first, never a key's value. */
export const v2KeyListHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, "keys:write", async (account, { params }) => {
    validQuery(keyQuerySchema, params);
    return send(200, { data: (await deps.keys.verbs.list(account.id)).map(keyJson) });
  });

/** GET /v2/keys/{id} */
export const v2KeyHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, "keys:write", async (account, { req, params }) => {
    validQuery(keyQuerySchema, params);
    return send(200, keyJson(await deps.keys.verbs.get(account.id, keyIdOf(req))));
  });

/** DELETE /v2/keys/{id}: revokes the key at once (every API process within 2 seconds); the account is mailed. */
export const v2RevokeKeyHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, "keys:write", async (account, { req, params }) => {
    validQuery(keyQuerySchema, params);
    const source = deps.audit.sourceOf(req, account);
    const revoked = await deps.keys.verbs.revoke(account.id, keyIdOf(req), account.scopes, source, keyNotices(deps.keys.notices, source.at).revoked);
    return send(200, keyJson(revoked));
  });

/** POST /v2/keys/{id}/roll: a new key; the old one works on for grace_seconds (default a day); the account is mailed. */
export const v2RollKeyHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, "keys:write", async (account, { req, params }) => {
    validQuery(keyQuerySchema, params);
    // The body is optional: a roll with the default grace may send none.
    const empty = req.headers["content-type"] === undefined && Number(req.headers["content-length"] ?? 0) === 0 && req.headers["transfer-encoding"] === undefined;
    const body = empty ? keyRollBodySchema.parse({}) : await readJsonBody(req, keyRollBodySchema, MAX_KEY_BODY_BYTES);
    const source = deps.audit.sourceOf(req, account);
    const rolled = await deps.keys.verbs.roll(account.id, keyIdOf(req), body.grace_seconds, account.scopes, source, keyNotices(deps.keys.notices, source.at).rolled);
    return send(201, issuedJson(rolled), SECRET_HEADERS);
  });
