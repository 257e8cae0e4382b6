/**
 * Verdicts on the Host values seen last: a server hears the same few on every request, and parsing one as a URL
 * costs more than the rest of a cached query's routing. Bounded, so a stream of distinct values costs memory
 * for no more than this many.
 */
const verdicts = new Map<string, boolean>();
const REMEMBERED = 256;

/** A Host (or X-Forwarded-Host) header as URLs are built from it: a name or address, an optional port, nothing else. */
export function isHostHeader(value: string): boolean {
  const known = verdicts.get(value);
  if (known !== undefined) return known;
  const url = URL.parse(`http://${value}/`);
  const verdict = url !== null && url.pathname === "/" && !url.username && !url.password && !url.search && !url.hash && !/\s/.test(value);
  if (verdicts.size >= REMEMBERED) verdicts.clear();
  verdicts.set(value, verdict);
  return verdict;
}
