import type { ObservedValues } from "../../lib/history/observed.ts";
import { deriveCounts, deriveMoreCounts } from "./derive-counts.ts";

const sum = <T>(items: readonly T[], of: (item: T) => number) => items.reduce((total, item) => total + of(item), 0);

/**
 * What the service observes for a (normalized) URL from the twins in their "ok" mode: each adapter's sums
 * of the counts the twins derive. The demo account's made-up history grows to these, so its first refresh
 * continues the curve instead of jumping.
 */
export function sandboxObservedValues(url: string): ObservedValues {
  const { facebook, pinterest } = deriveCounts(url);
  const more = deriveMoreCounts(url);
  return {
    Facebook: {
      total_count: facebook.comment_count + facebook.reaction_count + facebook.share_count + facebook.comment_plugin_count,
      comment_count: facebook.comment_count,
      reaction_count: facebook.reaction_count,
      share_count: facebook.share_count,
      comment_plugin_count: facebook.comment_plugin_count,
    },
    Pinterest: pinterest,
    reddit: { score: sum(more.reddit, (s) => s.score), comments: sum(more.reddit, (s) => s.num_comments), posts: more.reddit.length },
    hackernews: { points: sum(more.hackernews, (s) => s.points), comments: sum(more.hackernews, (s) => s.num_comments), stories: more.hackernews.length },
    bluesky: {
      likes: sum(more.bluesky, (p) => p.likeCount),
      reposts: sum(more.bluesky, (p) => p.repostCount),
      replies: sum(more.bluesky, (p) => p.replyCount),
      quotes: sum(more.bluesky, (p) => p.quoteCount),
      posts: more.bluesky.length,
    },
    vk: { count: more.vk },
    ok: { count: more.ok },
    tumblr: { notes: more.tumblr },
  };
}
