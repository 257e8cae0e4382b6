import "server-only";
import { EVENT_TYPES } from "../../lib/alerts/alert-types.ts";
import { AlertSettings } from "../../lib/alerts/alert-settings.ts";
import { UnsubscribeTokens, type Unsubscribable } from "../../lib/alerts/unsubscribe-token.ts";
import { loadServerSecret } from "../../lib/security/secrets.ts";
import { dashboard } from "./context.ts";

/** What a mailed unsubscribe link names, or null when the token is not this server's. */
export function unsubscribeTarget(token: string): { accountId: string; what: Unsubscribable; label: string } | null {
  const { env } = dashboard();
  const target = new UnsubscribeTokens(loadServerSecret(env)).read(token);
  if (!target) return null;
  const label = target.what === "digest" ? "the weekly digest" : `alert mail about “${EVENT_TYPES[target.what].title}”`;
  return { ...target, label };
}

/** Turns off what the token names (the token is the authentication: no session needed). */
export async function unsubscribe(target: { accountId: string; what: Unsubscribable }): Promise<void> {
  await new AlertSettings(dashboard().prisma).unsubscribe(target.accountId, target.what);
}
