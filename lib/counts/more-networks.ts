import { z } from "zod";

/**
 * What the networks beyond Facebook and Pinterest report for one URL (API v2 and history only; v1.0 and
 * v1.1 answers never carry them). Each is checked by its schema wherever it is read back.
 */

const count = z.number().int().min(0);

/** Reddit: summed over the URL's submissions; no submission is a real 0. */
export const redditValuesSchema = z.object({ score: z.number().int(), comments: count, posts: count });
/** Hacker News: summed over the stories whose URL is this URL. */
export const hackerNewsValuesSchema = z.object({ points: z.number().int(), comments: count, stories: count });
/** Bluesky: summed over the posts found linking the URL (up to the search's bound). */
export const blueskyValuesSchema = z.object({ likes: count, reposts: count, replies: count, quotes: count, posts: count });
export const vkValuesSchema = z.object({ count });
export const okValuesSchema = z.object({ count });
export const tumblrValuesSchema = z.object({ notes: count });

export type RedditValues = z.infer<typeof redditValuesSchema>;
export type HackerNewsValues = z.infer<typeof hackerNewsValuesSchema>;
export type BlueskyValues = z.infer<typeof blueskyValuesSchema>;
export type VkValues = z.infer<typeof vkValuesSchema>;
export type OkValues = z.infer<typeof okValuesSchema>;
export type TumblrValues = z.infer<typeof tumblrValuesSchema>;

export interface MoreNetworkValues {
  reddit: RedditValues;
  hackernews: HackerNewsValues;
  bluesky: BlueskyValues;
  vk: VkValues;
  ok: OkValues;
  tumblr: TumblrValues;
}

export type MoreNetworkName = keyof MoreNetworkValues;

export const MORE_NETWORKS = ["reddit", "hackernews", "bluesky", "vk", "ok", "tumblr"] as const satisfies readonly MoreNetworkName[];

export const moreNetworkSchemas: { [N in MoreNetworkName]: z.ZodType<MoreNetworkValues[N]> } = {
  reddit: redditValuesSchema,
  hackernews: hackerNewsValuesSchema,
  bluesky: blueskyValuesSchema,
  vk: vkValuesSchema,
  ok: okValuesSchema,
  tumblr: tumblrValuesSchema,
};
