import { z } from "zod";

/** What a key may do (the README's scopes table says which routes need which). */
export const SCOPES = [
  "counts:read",
  "bulk:read",
  "bulk:write",
  "tracked:read",
  "tracked:write",
  "account:read",
  "account:write",
  "keys:write",
] as const;

export type Scope = (typeof SCOPES)[number];

export const ALL_SCOPES: readonly Scope[] = SCOPES;

export const scopeSchema = z.enum(SCOPES);

/** A key's scopes as a request names them: at least one, each once, in the catalogue's order. */
export const scopeList = z
  .array(scopeSchema)
  .min(1, "A key needs at least one scope.")
  .max(SCOPES.length)
  .transform((scopes) => SCOPES.filter((scope) => scopes.includes(scope)));

/** Stored space-separated; a name no longer in the catalogue is dropped, never granted. */
export const scopesOf = (stored: string): Scope[] => {
  const names = stored.split(" ");
  return SCOPES.filter((scope) => names.includes(scope));
};

export const storedScopes = (scopes: readonly Scope[]): string => scopes.join(" ");
