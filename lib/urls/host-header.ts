/** A Host (or X-Forwarded-Host) header as URLs are built from it: a name or address, an optional port, nothing else. */
export function isHostHeader(value: string): boolean {
  const url = URL.parse(`http://${value}/`);
  return url !== null && url.pathname === "/" && !url.username && !url.password && !url.search && !url.hash && !/\s/.test(value);
}
