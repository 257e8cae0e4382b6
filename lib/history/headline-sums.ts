/**
 * The rules totals and changes follow, over networks' headline numbers (HEADLINE_FIELDS) keyed by network: the
 * API's `total` and `change_7d` and the dashboard's Total line and daily changes all add up the same way.
 */
export type Headlines = Partial<Record<string, number>>;

/** The sum of the headline numbers known; null when no network is known. */
export function totalOfHeadlines(numbers: Headlines): number | null {
  const known = Object.values(numbers).filter((n) => n !== undefined);
  return known.length === 0 ? null : known.reduce((sum, n) => sum + n, 0);
}

/**
 * The change from `then` to `now`, summed over the networks known at both ends: a network that failed at one
 * end says nothing about the change. Null when no network is known at both ends.
 */
export function changeOfHeadlines(then: Headlines, now: Headlines): number | null {
  let change: number | null = null;
  for (const [network, value] of Object.entries(now)) {
    const old = then[network];
    if (value !== undefined && old !== undefined) change = (change ?? 0) + value - old;
  }
  return change;
}
