/**
 * Which Hacker News stories are about a URL. HN's search is fuzzy (it returns other pages of the same site,
 * the URL with another query…), so a story counts only when its URL has the same key as the asked URL.
 * Two URLs have the same key when, after the WHATWG URL parser has normalized them (lower-case host, IDN to
 * punycode, default port of the URL's own scheme dropped, dot segments resolved, unsafe characters
 * percent-encoded):
 * - both are http or https, either one (HN links a page, not a transport; other schemes never match);
 * - their hosts are equal without one leading `www.`;
 * - their ports are equal (`http://x:443/` keeps its port: it is not the default for http);
 * - their paths are equal without one trailing slash (`/a/` = `/a`, `/` = no path);
 * - their queries are equal, in order (`?a=1&b=2` ≠ `?b=2&a=1`, `+` ≠ `%20`: a server may tell them
 *   apart), an empty `?` being no query;
 * - percent-escapes in path and query are compared with upper-case hex, and escaped unreserved characters
 *   (letters, digits, `-._~`) as themselves (RFC 3986 §6.2.2.2);
 * - fragments and user info are ignored.
 * Path case matters.
 */
export function storyUrlKey(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  const host = url.hostname.replace(/^www\./, "");
  const port = url.port === "" ? "" : `:${url.port}`;
  const path = normalizeEscapes(url.pathname).replace(/\/$/, "");
  return `${host}${port}${path}${normalizeEscapes(url.search)}`;
}

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

function normalizeEscapes(text: string): string {
  return text.replace(/%[0-9a-fA-F]{2}/g, (escape) => {
    const char = String.fromCharCode(Number.parseInt(escape.slice(1), 16));
    return UNRESERVED.test(char) ? char : escape.toUpperCase();
  });
}
