import type { Hono } from "hono";
import { deriveMoreCounts, type RedditSubmission } from "./derive-counts.ts";
import { gone, TwinState, type Delays } from "./twin.ts";

/**
 * Reddit's twin: `GET /reddit/api/info.json?url=URL` answers a Listing of the URL's submissions (t3).
 * `none`: an empty Listing; `throttle`: 429 with `Retry-After: 30`; `429`: 429 without it.
 */
export const REDDIT_MODES = ["ok", "none", "fail", "throttle", "429", "garbage", "hang"] as const;
export type RedditMode = (typeof REDDIT_MODES)[number];

/** Bodies served in "garbage" mode; which one depends on the URL. */
export const REDDIT_GARBAGE_BODIES = [
  "<!doctype html><html><head><title>Reddit - Dive into anything</title></head><body>whoa there, pardner!</body></html>",
  '{"kind":"Listing","data":{"children":[{"kind":"t3","data":{"score":"many","num_comments":2}}]}}',
  '{"kind":"Listing","data":{"children":"none"}}',
] as const;

export type RedditTwin = TwinState<RedditMode, never>;

function listing(url: string, submissions: RedditSubmission[]) {
  return {
    kind: "Listing",
    data: {
      after: null,
      dist: submissions.length,
      modhash: "",
      geo_filter: "",
      children: submissions.map(({ id, score, num_comments }) => ({
        kind: "t3",
        data: { id, name: `t3_${id}`, subreddit: "sandbox", title: `Sandbox submission ${id}`, url, permalink: `/r/sandbox/comments/${id}/`, score, num_comments },
      })),
      before: null,
    },
  };
}

export function mountReddit(app: Hono, twin: RedditTwin, delays: Delays): void {
  app.get("/reddit/api/info.json", async (c) => {
    const url = c.req.query("url") ?? "";
    twin.record(url);
    const { mode } = twin.knobs;
    if (!(await delays.wait(c, twin.knobs))) return gone();
    const derived = deriveMoreCounts(url);
    switch (mode) {
      case "fail":
        return c.json({ message: "Internal Server Error", error: 500 }, 500);
      case "throttle":
        return c.json({ message: "Too Many Requests", error: 429 }, 429, { "retry-after": "30" });
      case "429":
        return c.json({ message: "Too Many Requests", error: 429 }, 429);
      case "garbage": {
        const body = REDDIT_GARBAGE_BODIES[derived.variant % REDDIT_GARBAGE_BODIES.length]!;
        return c.body(body, 200, { "content-type": body.startsWith("<") ? "text/html" : "application/json" });
      }
    }
    return c.json(listing(url, mode === "none" ? [] : derived.reddit));
  });
}
