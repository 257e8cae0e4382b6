/**
 * Domain whitelist rules: which entries are valid, their one normal form, and which hosts they admit.
 * An entry is an exact host (`example.com`) or `*.example.com`, which admits subdomains but not the apex,
 * so `foo.com` and `sub.foo.com` are separate entries. Runs in the browser too.
 */

import { publicHost } from "../urls/public-host.ts";

export type WhitelistEntryResult = { ok: true; domain: string } | { ok: false; reason: string };

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const MAX_HOST_LENGTH = 253;

/** Lowercase, punycode, no trailing dot; null when it is not a host name. */
export function normalizeHost(input: string): string | null {
  const trimmed = input.trim().toLowerCase().replace(/\.$/, "");
  if (trimmed.length === 0 || trimmed.length > MAX_HOST_LENGTH) return null;
  // Anything that would make the URL parser read a different host (`a.com/b.com`, `b.com@a.com`) is not a host name.
  if (/[\s/\\?#@:%[\]*]/.test(trimmed)) return null;
  let ascii: string;
  try {
    // The URL parser applies IDNA (bücher.de → xn--bcher-kva.de) the same way for every caller.
    ascii = new URL(`http://${trimmed}/`).hostname;
  } catch {
    return null;
  }
  const labels = ascii.split(".");
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return null;
  return ascii;
}

/** Accepts what users paste (`https://Example.com:8080/path`, `*.example.com`, `bücher.de`) and returns the entry. */
export function normalizeWhitelistEntry(input: string): WhitelistEntryResult {
  let value = input.trim().toLowerCase();
  if (value.length === 0) return { ok: false, reason: "empty entry" };
  value = value.replace(/^[a-z][a-z0-9+.-]*:\/\//, "");
  value = value.split(/[/?#]/, 1)[0] ?? "";
  if (value.includes("@")) return { ok: false, reason: "an entry is a domain name, without user or password" };
  value = value.replace(/:\d*$/, "");
  const wildcard = value.startsWith("*.");
  if (value.includes("*", wildcard ? 1 : 0)) return { ok: false, reason: "a wildcard is only allowed as a leading *." };
  const host = normalizeHost(wildcard ? value.slice(2) : value);
  if (!host) return { ok: false, reason: `"${input.trim()}" is not a valid domain name` };
  // No URL on a private network or a special-use name can be counted, so none can be whitelisted.
  if (!publicHost(host).ok) return { ok: false, reason: `"${input.trim()}" is not a public host: only public domains and addresses can be queried` };
  return { ok: true, domain: wildcard ? `*.${host}` : host };
}

/** Whether `host` (a URL's hostname) is admitted by the entries: exact match, or a subdomain of a `*.` entry. */
export function hostAllowed(host: string, entries: readonly string[]): boolean {
  const normalized = normalizeHost(host);
  if (!normalized) return false;
  for (const entry of entries) {
    if (entry.startsWith("*.")) {
      if (normalized.endsWith(entry.slice(1))) return true;
    } else if (normalized === entry) {
      return true;
    }
  }
  return false;
}

/** An account's domain whitelist and whether it is enforced. */
export interface WhitelistRule {
  enabled: boolean;
  domains: readonly string[];
}

/** Whether a whitelist lets a URL of `host` through: always while it is not enforced (or not known yet: null). */
export function admits(whitelist: WhitelistRule | null, host: string): boolean {
  return !whitelist?.enabled || hostAllowed(host, whitelist.domains);
}
