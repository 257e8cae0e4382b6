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
