import { displayHost } from "../../lib/urls/display-url.ts";
import { normalizeWhitelistEntry } from "../../lib/whitelist/domains.ts";

/** The whitelist as the dashboard edits it: the entries (normalized) and whether they are enforced. */
export interface WhitelistState {
  domains: string[];
  enabled: boolean;
}

export type AddEntryResult =
  | { ok: true; domains: string[]; domain: string }
  | { ok: false; reason: string };

/** An entry as people read it, its domain in Unicode (`*.bücher.de`); what is saved and compared stays ASCII. */
export function displayEntry(entry: string): string {
  return entry.startsWith("*.") ? `*.${displayHost(entry.slice(2))}` : displayHost(entry);
}

/** Adds what the user typed, normalized the way the service stores it; refuses invalid entries and repeats. */
export function addEntry(domains: readonly string[], input: string): AddEntryResult {
  const result = normalizeWhitelistEntry(input);
  if (!result.ok) return { ok: false, reason: sentence(result.reason) };
  const { domain } = result;
  if (domains.includes(domain)) {
    // Say which entry it repeats when normalization changed it, or "already listed" would puzzle.
    const typed = input.trim();
    const shown = displayEntry(domain);
    return {
      ok: false,
      reason: typed === shown ? `${shown} is already on the list.` : `"${typed}" is ${shown}, which is already on the list.`,
    };
  }
  return { ok: true, domains: sortEntries([...domains, domain]), domain };
}

/** Alphabetical by domain as shown (bücher.de among the b's), a `*.` entry right after its apex, so related entries sit together. */
export function sortEntries(domains: readonly string[]): string[] {
  const host = (entry: string) => displayHost(entry.replace(/^\*\./, ""));
  // Code-point order, not the locale's: the order must not vary by browser.
  const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...domains].sort((a, b) => compare(host(a), host(b)) || a.length - b.length);
}

export function removeEntry(domains: readonly string[], domain: string): string[] {
  return domains.filter((entry) => entry !== domain);
}

/** Whether the draft differs from what is saved; the order of entries does not matter to the service. */
export function isDirty(saved: WhitelistState, draft: WhitelistState): boolean {
  if (saved.enabled !== draft.enabled) return true;
  const savedDomains = new Set(saved.domains);
  const draftDomains = new Set(draft.domains);
  return savedDomains.size !== draftDomains.size || [...draftDomains].some((domain) => !savedDomains.has(domain));
}

/** An enforced whitelist without entries refuses every query. */
export function refusesEveryQuery(state: WhitelistState): boolean {
  return state.enabled && state.domains.length === 0;
}

function sentence(reason: string): string {
  const text = reason.charAt(0).toUpperCase() + reason.slice(1);
  return text.endsWith(".") ? text : `${text}.`;
}
