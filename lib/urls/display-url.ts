import { toUnicode } from "tr46";
import { IDNA } from "./public-host.ts";

/**
 * How hosts are shown to people: international labels in Unicode (`xn--bcher-kva.de` is `bücher.de`), while
 * what is stored, compared and sent stays ASCII. tr46 decodes them by UTS #46, as public-host.ts checks them,
 * the same in every browser and in Node (Node's url.domainToUnicode exists only on the server). Runs in the
 * browser.
 */

/** Letters of these scripts look alike: a label mixing them (`pаypal` with a Cyrillic `а`) would pass for another name. */
const LOOKALIKE_SCRIPTS = [/\p{Script=Latin}/u, /\p{Script=Greek}/u, /\p{Script=Cyrillic}/u];

const mixesLookalikes = (label: string) => LOOKALIKE_SCRIPTS.filter((script) => script.test(label)).length > 1;

/** A host (lowercase ASCII, as URLs and whitelists store it) as people read it; a label that cannot be decoded, or mixes lookalike scripts, stays in punycode. */
export function displayHost(host: string): string {
  if (!/(^|\.)xn--/.test(host)) return host;
  const { domain, error } = toUnicode(host, IDNA);
  const ascii = host.split(".");
  const unicode = domain.split(".");
  if (error || unicode.length !== ascii.length) return host;
  return unicode.map((label, i) => (mixesLookalikes(label) ? ascii[i] : label)).join(".");
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
