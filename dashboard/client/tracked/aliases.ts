import type { UrlRule } from "../../../lib/urls/user-url.ts";

/** The API keeps at most this many aliases per tracked URL (PUT /v2/tracked/aliases). */
export const MAX_ALIASES = 10;

export type AddAliasResult = { ok: true; aliases: string[] } | { ok: false; reason: string };

const sentence = (reason: string) => `${reason.charAt(0).toUpperCase()}${reason.slice(1)}.`;

/**
 * Adds an alias as the API will store it (normalized by `rule`, the API's parseCountUrl); refuses what the API
 * would refuse, the URL itself, a repeat, and an 11th. The rule is passed in: the page loads it lazily.
 */
export function addAlias(aliases: readonly string[], input: string, ownUrl: string, rule: UrlRule): AddAliasResult {
  const typed = input.trim();
  if (!typed) return { ok: false, reason: "Type the URL's older address first." };
  const parsed = rule(typed);
  if (!parsed.ok) return { ok: false, reason: sentence(parsed.reason) };
  const own = rule(ownUrl);
  if (own.ok && own.normalized === parsed.normalized) return { ok: false, reason: "That is this URL itself: it is always counted." };
  if (aliases.includes(parsed.normalized)) return { ok: false, reason: `${parsed.normalized} is already an alias.` };
  if (aliases.length >= MAX_ALIASES) return { ok: false, reason: `A URL has at most ${MAX_ALIASES} aliases: remove one first.` };
  return { ok: true, aliases: [...aliases, parsed.normalized] };
}

export const removeAlias = (aliases: readonly string[], alias: string) => aliases.filter((entry) => entry !== alias);

/** Whether the draft differs from the saved list; their order means nothing to the API. */
export function aliasesChanged(saved: readonly string[], draft: readonly string[]): boolean {
  const before = new Set(saved);
  return before.size !== new Set(draft).size || draft.some((alias) => !before.has(alias));
}
