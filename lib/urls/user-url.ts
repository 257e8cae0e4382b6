import { parseCountUrl, type CountUrlResult } from "./count-url.ts";

/**
 * The one rule for a URL a person names to look up or track: the dashboard's Lookup and paste form read it
 * with this, and so does `POST /v2/tracked`, so all three accept the same inputs. A URL with its scheme is
 * read as parseCountUrl reads it; a bare host or host/path (`example.org/page`, as people type it) is that
 * page over HTTPS. The v1 API keeps parseCountUrl's own rule: the original service's clients send complete
 * URLs, and a bare one is a 400 there. Pure and web-standard: it runs in the browser too.
 */

export type UrlRule = (input: string) => CountUrlResult;

/** A scheme and its colon, but not a host and port (`example.org:8080/page` has no scheme). */
const SCHEME = /^[a-z][a-z\d+.-]*:(?!\d)/i;

export function parseUserUrl(input: string): CountUrlResult {
  const value = input.trim();
  const asWritten = parseCountUrl(value);
  if (asWritten.ok || value === "" || SCHEME.test(value)) return asWritten;
  const absolute = `https://${value}`;
  // `someone@example.org` is an email address, not the home page of example.org.
  if (hasCredentials(absolute)) return { ok: false, reason: "the URL names a user (is it an email address?); send the page's address" };
  return parseCountUrl(absolute);
}

function hasCredentials(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.username !== "" || parsed.password !== "";
  } catch {
    return false;
  }
}
