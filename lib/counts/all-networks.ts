import type { z } from "zod";
import { networkValueSchemas, type NetworkName, type NetworkValues } from "./values.ts";
import { MORE_NETWORKS, moreNetworkSchemas, type MoreNetworkName, type MoreNetworkValues } from "./more-networks.ts";

/**
 * Every network the service can ask, under two spellings: the id users and API v2 see (lower case), and the
 * key stores, caches and history use (v1's "Facebook" and "Pinterest" keep their capitals, as in v1 answers).
 */

export const NETWORK_IDS = ["facebook", "pinterest", ...MORE_NETWORKS] as const;
export type NetworkId = (typeof NETWORK_IDS)[number];

export type NetworkKey = NetworkName | MoreNetworkName;
export type AnyNetworkValues = NetworkValues & MoreNetworkValues;

export const keyOf = <I extends NetworkId>(id: I) =>
  (id === "facebook" ? "Facebook" : id === "pinterest" ? "Pinterest" : id) as I extends "facebook"
    ? "Facebook"
    : I extends "pinterest"
      ? "Pinterest"
      : Exclude<I, "facebook" | "pinterest">;

export const idOf = (key: NetworkKey): NetworkId => (key === "Facebook" ? "facebook" : key === "Pinterest" ? "pinterest" : key);

export const isNetworkId = (name: string): name is NetworkId => (NETWORK_IDS as readonly string[]).includes(name);

export const networkSchemas: { [K in NetworkKey]: z.ZodType<AnyNetworkValues[K]> } = { ...networkValueSchemas, ...moreNetworkSchemas };

/**
 * Each network's headline number, the sum of these fields of its v2 object (Pinterest's is its one count):
 * what a total adds up and a change compares. Engagement only: how many posts or stories a network found
 * the URL in is a count of items, not of reactions, so it is kept but not added in.
 */
export const HEADLINE_FIELDS = {
  facebook: ["total_count"],
  pinterest: ["count"],
  reddit: ["score", "comments"],
  hackernews: ["points", "comments"],
  bluesky: ["likes", "reposts", "replies", "quotes"],
  vk: ["count"],
  ok: ["count"],
  tumblr: ["notes"],
} as const satisfies Record<NetworkId, readonly string[]>;

/** The names people read. */
export const NETWORK_LABELS: Record<NetworkId, string> = {
  facebook: "Facebook",
  pinterest: "Pinterest",
  reddit: "Reddit",
  hackernews: "Hacker News",
  bluesky: "Bluesky",
  vk: "VK",
  ok: "OK.ru",
  tumblr: "Tumblr",
};
