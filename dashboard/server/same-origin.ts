/**
 * Whether a mutation comes from this site's own pages: the browser says so in Sec-Fetch-Site, or sends an
 * Origin that is the public URL or, scheme, host and port alike, the origin it asked (its scheme from the
 * proxy's X-Forwarded-Proto, else http: this server speaks no TLS itself). `Origin: null` (sandboxed frames,
 * some redirects) and an unparsable Origin are not this site. Cookies are SameSite=Lax as well; this closes
 * the rest.
 */
export function isSameOrigin(header: (name: string) => string | null | undefined, publicOrigin: string | undefined): boolean {
  const site = header("sec-fetch-site");
  if (site) return site === "same-origin";
  const origin = header("origin");
  const parsed = origin && origin !== "null" ? URL.parse(origin) : null;
  if (!parsed) return false;
  if (publicOrigin !== undefined && parsed.origin === publicOrigin) return true;
  const scheme = header("x-forwarded-proto") === "https" ? "https" : "http";
  const asked = URL.parse(`${scheme}://${header("x-forwarded-host") ?? header("host") ?? ""}`);
  return asked !== null && parsed.origin === asked.origin;
}
