import { z } from "zod";
import type { RedditValues } from "../../lib/counts/more-networks.ts";
import { parseJson, withUpstream, type UpstreamAdapter } from "./upstream.ts";

export interface RedditAdapterOptions {
  /** e.g. https://www.reddit.com */
  baseUrl: string;
  timeoutMs: number;
  /** Reddit throttles generic user agents hard; its rules ask for `<platform>:<app id>:<version> (by /u/<user>)`. */
  userAgent?: string;
}

export const DEFAULT_REDDIT_USER_AGENT = "server:sharecount:0.1 (self-hosted share-count service)";

const listingSchema = z.object({
  kind: z.literal("Listing"),
  data: z.object({ children: z.array(z.object({ kind: z.string(), data: z.unknown() })) }),
});
const submissionSchema = z.object({ score: z.number().int(), num_comments: z.number().int().min(0) });

/** `GET {base}/api/info.json?url=U`: every submission (t3) of the URL, summed; none is a real 0. */
export function createRedditAdapter(options: RedditAdapterOptions): UpstreamAdapter<"reddit"> {
  const { baseUrl, timeoutMs, userAgent = DEFAULT_REDDIT_USER_AGENT } = options;

  const fetchCount = (url: string, signal: AbortSignal) =>
    withUpstream<RedditValues>(timeoutMs, signal, async (call) => {
      // 100 is the most a listing holds (the default is 25).
      const answer = await call.fetch(`${baseUrl}/api/info.json?url=${encodeURIComponent(url)}&limit=100`, {
        headers: { "user-agent": userAgent },
      });
      const failure = call.status(answer);
      if (failure) return failure;

      const listing = listingSchema.safeParse(parseJson(answer.text));
      if (!listing.success) return call.fail("failed", "answer is not a Listing");
      const values: RedditValues = { score: 0, comments: 0, posts: 0 };
      for (const child of listing.data.data.children) {
        if (child.kind !== "t3") continue;
        const submission = submissionSchema.safeParse(child.data);
        if (!submission.success) return call.fail("failed", "a submission lacks a numeric score or num_comments");
        values.score += submission.data.score;
        values.comments += submission.data.num_comments;
        values.posts++;
      }
      return call.ok(values);
    });

  return { name: "reddit", fetchCount };
}
