/**
 * Whether a mutation comes from this site's own pages: the browser says so in Sec-Fetch-Site, or sends an
 * Origin that is the public URL or the host it asked. `Origin: null` (sandboxed frames, some redirects) and
 * an unparsable Origin are not this site. Cookies are SameSite=Lax as well; this closes the rest.
 */
export function isSameOrigin(header: (name: string) => string | null | undefined, publicOrigin: string | undefined): boolean {
  const site = header("sec-fetch-site");
  if (site) return site === "same-origin";
  const origin = header("origin");
  const parsed = origin && origin !== "null" ? URL.parse(origin) : null;
  if (!parsed) return false;
  if (publicOrigin !== undefined && parsed.origin === publicOrigin) return true;
  return parsed.host === (header("x-forwarded-host") ?? header("host"));
}
