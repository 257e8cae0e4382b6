import { decode } from "punycode/";

/**
 * How hosts are shown to people: international labels in Unicode (`xn--bcher-kva.de` is `bücher.de`), while
 * what is stored, compared and sent stays ASCII. Hosts shown are ones already stored, which public-host.ts
 * checked by UTS #46 (tr46) on the way in; decoding them needs only punycode (RFC 3492), which keeps tr46's
 * mapping tables (some 70 kB gzipped) out of the pages' scripts. Runs in the browser and in Node.
 */

/** Letters of these scripts look alike: a label mixing them (`pаypal` with a Cyrillic `а`) would pass for another name. */
const LOOKALIKE_SCRIPTS = [/\p{Script=Latin}/u, /\p{Script=Greek}/u, /\p{Script=Cyrillic}/u];
/** What a decoded label may show: letters, marks, digits and hyphens (no spaces, symbols or invisible characters). */
const SHOWABLE = /^[\p{L}\p{M}\p{N}-]+$/u;

const mixesLookalikes = (label: string) => LOOKALIKE_SCRIPTS.filter((script) => script.test(label)).length > 1;

/** One `xn--` label in Unicode, or null when it does not decode to a name that can be shown as it is. */
function unicodeLabel(label: string): string | null {
  let decoded: string;
  try {
    decoded = decode(label.slice(4));
  } catch {
    return null;
  }
  if (!SHOWABLE.test(decoded) || decoded !== decoded.normalize("NFC") || mixesLookalikes(decoded)) return null;
  return decoded;
}

/** A host (lowercase ASCII, as URLs and whitelists store it) as people read it; a label that cannot be decoded, or mixes lookalike scripts, stays in punycode. */
export function displayHost(host: string): string {
  if (!/(^|\.)xn--/.test(host)) return host;
  return host
    .split(".")
    .map((label) => (label.startsWith("xn--") ? (unicodeLabel(label) ?? label) : label))
    .join(".");
}

/** A stored URL as people read it: its host by displayHost, the rest as it is. */
export function displayUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  const host = displayHost(parsed.hostname);
  if (host === parsed.hostname) return url;
  return `${parsed.protocol}//${host}${parsed.port ? `:${parsed.port}` : ""}${parsed.pathname}${parsed.search}${parsed.hash}`;
}
