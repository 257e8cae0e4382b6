import { randomBytes } from "node:crypto";
import { systemSource } from "../../lib/audit/actor.ts";
import type { PrismaClient } from "../../lib/db/prisma.ts";
import { ApiKeys } from "../../lib/keys/api-keys.ts";
import { ALL_SCOPES, type Scope } from "../../lib/keys/scopes.ts";
import { KeyVault } from "../../lib/security/secrets.ts";

/** A new key of the account (every scope unless named), made by the key verbs as the API makes them; its value. */
export async function newKey(prisma: PrismaClient, accountId: string, scopes: readonly Scope[] = ALL_SCOPES, name = "test"): Promise<string> {
  const keys = new ApiKeys(prisma, new KeyVault(randomBytes(32)));
  return (await keys.create(accountId, { name, scopes, expiresAt: null }, ALL_SCOPES, systemSource(Date.now()))).key;
}
