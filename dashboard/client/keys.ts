import type { Scope } from "../../lib/keys/scopes.ts";

/** A key as the keys page lists it (dashboard/server/key-json.ts). */
export interface KeyRow {
  id: string;
  name: string;
  prefix: string | null;
  scopes: Scope[];
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  /** The key carried over from before named keys can be revealed once more. */
  revealable: boolean;
}

/** A key just created or rolled: its value, shown once. */
export interface IssuedKeyAnswer {
  key: string;
  row: KeyRow;
}

export type KeyState = "active" | "expiring" | "expired" | "revoked";

/** Whether the key works now, and whether it stops soon on its own (a roll's grace, or a chosen expiry). */
export function keyState(key: KeyRow, now: number): KeyState {
  if (key.revokedAt !== null) return "revoked";
  if (key.expiresAt === null) return "active";
  const left = Date.parse(key.expiresAt) - now;
  if (left <= 0) return "expired";
  return left <= 7 * 86_400_000 ? "expiring" : "active";
}

/** What each scope lets a key do, as the create form explains it. */
export const SCOPE_MEANINGS: Record<Scope, string> = {
  "counts:read": "Share counts (v1.0, v1.1, /v2/counts) and count history",
  "bulk:read": "Read bulk jobs' progress and results",
  "bulk:write": "Submit bulk jobs",
  "tracked:read": "List tracked URLs and imports",
  "tracked:write": "Track and untrack URLs, import sitemaps and feeds",
  "account:read": "Quota, usage, status, whitelist, events, the account export",
  "account:write": "Webhooks",
  "keys:write": "Create, roll and revoke keys (only with scopes it has itself)",
};
