import { HEADLINE_FIELDS, idOf, keyOf, type NetworkId } from "../counts/all-networks.ts";
import { z } from "zod";
import { MORE_NETWORKS, moreNetworkSchemas } from "../counts/more-networks.ts";
import type { FacebookCounts, StoredCounts } from "../counts/values.ts";
import { changeOfHeadlines, totalOfHeadlines } from "./headline-sums.ts";

/**
 * What one observation holds: each network that answered fresh at that time. A network that failed or was
 * served stale is absent (nothing new was learnt about it), never 0.
 */

const count = z.number().int().min(0);

/** History keeps at most one point per URL and epoch hour. */
export const HOUR_MS = 3_600_000;
export const hourOf = (at: number) => Math.floor(at / HOUR_MS);

/** Facebook's engagement without the og_object (history keeps numbers only). */
export const facebookEngagementSchema = z.object({
  total_count: count,
  comment_count: count,
  reaction_count: count,
  share_count: count,
  comment_plugin_count: count,
});
export type FacebookEngagement = z.infer<typeof facebookEngagementSchema>;

export const observedValuesSchema = z.object({
  Facebook: facebookEngagementSchema.optional(),
  Pinterest: count.optional(),
  reddit: moreNetworkSchemas.reddit.optional(),
  hackernews: moreNetworkSchemas.hackernews.optional(),
  bluesky: moreNetworkSchemas.bluesky.optional(),
  vk: moreNetworkSchemas.vk.optional(),
  ok: moreNetworkSchemas.ok.optional(),
  tumblr: moreNetworkSchemas.tumblr.optional(),
});
export type ObservedValues = z.infer<typeof observedValuesSchema>;

export const OBSERVED_NETWORKS = ["Facebook", "Pinterest", ...MORE_NETWORKS] as const satisfies readonly (keyof ObservedValues)[];
export type ObservedNetwork = (typeof OBSERVED_NETWORKS)[number];
/** One network's value in an observation (present). */
export type ObservedValue<N extends ObservedNetwork> = NonNullable<ObservedValues[N]>;

export function engagementOf(counts: FacebookCounts): FacebookEngagement {
  return {
    total_count: counts.total_count,
    comment_count: counts.comment_count,
    reaction_count: counts.reaction_count,
    share_count: counts.share_count,
    comment_plugin_count: counts.comment_plugin_count,
  };
}

/** The networks of a fetch that answered fresh (`stale` names those served from an older answer). */
export function freshValues(counts: StoredCounts, stale: readonly string[]): ObservedValues {
  const values: ObservedValues = {};
  if (counts.Facebook && !stale.includes("Facebook")) values.Facebook = engagementOf(counts.Facebook);
  if (counts.Pinterest !== null && !stale.includes("Pinterest")) values.Pinterest = counts.Pinterest;
  return values;
}

export const isEmpty = (values: ObservedValues) => OBSERVED_NETWORKS.every((network) => values[network] === undefined);

/** The network's headline number (HEADLINE_FIELDS); Pinterest's value is its count itself. */
export function headlineOf<N extends ObservedNetwork>(network: N, value: ObservedValue<N>): number {
  if (typeof value === "number") return value;
  const fields: readonly string[] = HEADLINE_FIELDS[idOf(network)];
  let sum = 0;
  for (const field of fields) sum += (value as Record<string, number>)[field]!;
  return sum;
}

/** The values of these networks only (null: all of them): what an account's totals and changes sum. */
export function onlyNetworks(values: ObservedValues, networks: readonly NetworkId[] | null): ObservedValues {
  if (networks === null) return values;
  const kept: Record<string, unknown> = {};
  for (const id of networks) {
    const value = values[keyOf(id)];
    if (value !== undefined) kept[keyOf(id)] = value;
  }
  return kept as ObservedValues;
}

/** Each network's headline number: what `total` sums and `change_7d` compares. */
export function headlines(values: ObservedValues): Partial<Record<ObservedNetwork, number>> {
  const numbers: Partial<Record<ObservedNetwork, number>> = {};
  for (const network of OBSERVED_NETWORKS) {
    const value = values[network];
    if (value !== undefined) numbers[network] = headlineOf(network, value);
  }
  return numbers;
}

/** The sum of the networks' headline numbers; null when no network is known. */
export const totalOf = (values: ObservedValues): number | null => totalOfHeadlines(headlines(values));

/** The change from `before` to `now` (changeOfHeadlines: over the networks known at both ends). */
export const changeBetween = (before: ObservedValues, now: ObservedValues): number | null => changeOfHeadlines(headlines(before), headlines(now));

/** Every network a lookup holds a value for, fresh or stale: what a tracked URL's latest counts show. */
export const knownValues = (counts: StoredCounts): ObservedValues => freshValues(counts, []);
