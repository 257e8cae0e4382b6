import { z } from "zod";
import type { HackerNewsValues } from "../../lib/counts/more-networks.ts";
import { storyUrlKey } from "./hackernews-match.ts";
import { parseJson, withUpstream, type UpstreamAdapter } from "./upstream.ts";

export interface HackerNewsAdapterOptions {
  /** e.g. https://hn.algolia.com/api/v1 */
  baseUrl: string;
  timeoutMs: number;
}

/** Ask HN posts have no url, and some stories no points: such hits are skipped. */
const hitSchema = z.object({
  url: z.string().nullish(),
  points: z.number().int().nullish(),
  num_comments: z.number().int().min(0).nullish(),
});
const answerSchema = z.object({ hits: z.array(hitSchema) });

/**
 * `GET {base}/search?tags=story&restrictSearchableAttributes=url&query=U`: the stories whose URL matches U
 * (hackernews-match.ts), summed; none is a real 0.
 */
export function createHackerNewsAdapter(options: HackerNewsAdapterOptions): UpstreamAdapter<"hackernews"> {
  const { baseUrl, timeoutMs } = options;

  const fetchCount = (url: string, signal?: AbortSignal) =>
    withUpstream<HackerNewsValues>(timeoutMs, signal, async (call) => {
      const key = storyUrlKey(url);
      if (key === null) return call.fail("failed", "not an http(s) URL: no story can match it");
      // The search is fuzzy: ask for a full page (the default is 20) so near-misses do not crowd out matches.
      const answer = await call.fetch(
        `${baseUrl}/search?tags=story&restrictSearchableAttributes=url&hitsPerPage=100&query=${encodeURIComponent(url)}`,
      );
      const failure = call.status(answer);
      if (failure) return failure;

      const parsed = answerSchema.safeParse(parseJson(answer.text));
      if (!parsed.success) return call.fail("failed", "answer is not a list of hits with numeric points");
      const values: HackerNewsValues = { points: 0, comments: 0, stories: 0 };
      for (const hit of parsed.data.hits) {
        if (hit.url == null || hit.points == null || storyUrlKey(hit.url) !== key) continue;
        values.points += hit.points;
        values.comments += hit.num_comments ?? 0;
        values.stories++;
      }
      return call.ok(values);
    });

  return { name: "hackernews", fetchCount };
}
