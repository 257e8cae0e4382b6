import "server-only";
import type { ApiKeyRecord } from "../../lib/keys/api-keys.ts";
import type { KeyRow } from "../client/keys.ts";

/** A key as the keys page shows it: never its value or hash. */
export const keyRowOf = (key: ApiKeyRecord): KeyRow => ({
  id: key.id,
  name: key.name,
  prefix: key.prefix,
  scopes: key.scopes,
  createdAt: new Date(key.createdAt).toISOString(),
  lastUsedAt: key.lastUsedAt === null ? null : new Date(key.lastUsedAt).toISOString(),
  expiresAt: key.expiresAt === null ? null : new Date(key.expiresAt).toISOString(),
  revokedAt: key.revokedAt === null ? null : new Date(key.revokedAt).toISOString(),
  revealable: key.revealable,
});
