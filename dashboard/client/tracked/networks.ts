import { HEADLINE_FIELDS, NETWORK_IDS, NETWORK_LABELS, type NetworkId } from "../../../lib/counts/all-networks.ts";
import type { Networks } from "./types.ts";

type NetworkObject<N extends NetworkId> = NonNullable<Networks[N]>;
type FieldOf<N extends NetworkId> = Exclude<keyof NetworkObject<N>, "status" | "age_seconds"> & string;

interface Measure<N extends NetworkId> {
  /** The fields shown under the headline number, when it is not the network's only one. */
  fields: readonly { key: FieldOf<N>; label: string }[];
}

const MEASURES: { [N in NetworkId]: Measure<N> } = {
  facebook: {
    fields: [
      { key: "share_count", label: "Shares" },
      { key: "reaction_count", label: "Reactions" },
      { key: "comment_count", label: "Comments" },
      { key: "comment_plugin_count", label: "Comment plugin" },
    ],
  },
  pinterest: { fields: [] },
  reddit: {
    fields: [
      { key: "score", label: "Score" },
      { key: "comments", label: "Comments" },
      { key: "posts", label: "Posts" },
    ],
  },
  hackernews: {
    fields: [
      { key: "points", label: "Points" },
      { key: "comments", label: "Comments" },
      { key: "stories", label: "Stories" },
    ],
  },
  bluesky: {
    fields: [
      { key: "likes", label: "Likes" },
      { key: "reposts", label: "Reposts" },
      { key: "replies", label: "Replies" },
      { key: "quotes", label: "Quotes" },
      { key: "posts", label: "Posts found" },
    ],
  },
  vk: { fields: [] },
  ok: { fields: [] },
  tumblr: { fields: [] },
};

export interface HeadlineNetwork {
  key: NetworkId;
  label: string;
  measure: string;
  fields: readonly { key: string; label: string }[];
}

/** Every network with its one number the dashboard shows (its headline number), in the API's order. */
export const HEADLINE_NETWORKS: readonly HeadlineNetwork[] = NETWORK_IDS.map((key) => ({
  key,
  label: NETWORK_LABELS[key],
  // What the headline number is, in words: "score + comments", "total count".
  measure: HEADLINE_FIELDS[key].map((field) => field.replace("_", " ")).join(" + "),
  fields: MEASURES[key].fields,
}));

/** The networks of `ids` (those the account shows), in the order given. */
export const headlineNetworks = (ids: readonly NetworkId[]): HeadlineNetwork[] =>
  ids.map((id) => HEADLINE_NETWORKS.find((network) => network.key === id)!);

/** One field of a network object; the table above names only number fields, so the value is a count or null. */
const valueOf = (object: object, field: string) => (object as Record<string, number | null | undefined>)[field] ?? null;

/** One field of the network's object, or null when the network did not report it. */
export function fieldCount(networks: Networks, network: NetworkId, field: string): number | null {
  const object = networks[network];
  return !object || object.status === "unavailable" ? null : valueOf(object, field);
}

/** The network's headline number, or null when it did not report (never 0 in its place); stale values count. */
export function headlineCount(networks: Networks, network: NetworkId): number | null {
  let sum = 0;
  for (const field of HEADLINE_FIELDS[network] as readonly string[]) {
    const value = fieldCount(networks, network, field);
    if (value === null) return null;
    sum += value;
  }
  return sum;
}
