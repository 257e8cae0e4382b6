/** A v2 answer's networks, as the tests read them. */
export type Networks = Record<string, Record<string, number | string | null> | undefined>;

/** What `total` sums: each network's headline number (the README's rule). */
export function headlineSum(n: Networks): number {
  const v = (network: string, ...fields: string[]) => fields.reduce((sum, f) => sum + Number(n[network]?.[f] ?? 0), 0);
  return (
    v("facebook", "total_count") +
    v("pinterest", "count") +
    v("reddit", "score", "comments") +
    v("hackernews", "points", "comments") +
    v("bluesky", "likes", "reposts", "replies", "quotes") +
    v("vk", "count") +
    v("ok", "count") +
    v("tumblr", "notes")
  );
}

