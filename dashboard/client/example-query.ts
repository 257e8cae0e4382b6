/** The first request to make with a key: a count query for example.com, as curl sends it. */
export function exampleQuery(origin: string, apiKey: string, version: "v1.0" | "v1.1" = "v1.0"): string {
  return `curl "${origin}/${version}/?url=${encodeURIComponent("https://example.com/")}&apikey=${apiKey}"`;
}
