/** The most characters kept whole at a URL's end: enough for a slug or a query, little enough to leave the host room. */
export const TAIL_CHARACTERS = 20;

/**
 * A URL cut in two for a middle ellipsis: `head` may be cut short on screen, `tail` (the end of its path and
 * its query) never is. Many URLs of a job share a long beginning, so their ends are what tells rows apart.
 * `head + tail` is always the whole URL, so the text in the page (read aloud, selected, copied) stays whole.
 */
export function ellipsisParts(url: string, tailCharacters = TAIL_CHARACTERS): { head: string; tail: string } {
  // By code point, so a cut never splits a character in two.
  const characters = Array.from(url);
  const afterHost = url.match(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i)?.[0];
  const hostLength = afterHost ? Array.from(afterHost).length : 0;
  const lastSlash = characters.lastIndexOf("/");
  // The last path segment with its slash, and whatever follows it; never any of the host.
  const segmentStart = lastSlash >= hostLength ? lastSlash : hostLength;
  const start = Math.max(segmentStart, characters.length - tailCharacters);
  return { head: characters.slice(0, start).join(""), tail: characters.slice(start).join("") };
}
