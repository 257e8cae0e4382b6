import { randomUUID } from "node:crypto";
import type { Context, Hono } from "hono";
import type { RedditSubmission } from "./derive-counts.ts";
import { answerMode, TwinState, type Delays } from "./twin.ts";

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

/**
 * Also application-only OAuth: `POST /reddit/api/v1/access_token` gives a token for any client id and
 * secret; `GET /reddit-oauth/api/info?url=URL` answers as info.json does, given `Authorization: bearer` and
 * a token it gave.
 */
export function mountReddit(app: Hono, twin: RedditTwin, delays: Delays): void {
  const tokens = new Set<string>();
  const info = (c: Context) => {
    const url = c.req.query("url") ?? "";
    return answerMode(c, twin, delays, url, {
      fail: () => c.json({ message: "Internal Server Error", error: 500 }, 500),
      tooMany: (headers) => c.json({ message: "Too Many Requests", error: 429 }, 429, headers),
      garbageBodies: REDDIT_GARBAGE_BODIES,
      ok: (derived, none) => c.json(listing(url, none ? [] : derived.reddit)),
    });
  };
  app.get("/reddit/api/info.json", info);
  app.post("/reddit/api/v1/access_token", (c) => {
    if (!/^Basic \S+$/.test(c.req.header("authorization") ?? "")) return c.json({ message: "Unauthorized", error: 401 }, 401);
    const token = `sandbox-${randomUUID()}`;
    tokens.add(token);
    return c.json({ access_token: token, token_type: "bearer", expires_in: 86400, scope: "*" });
  });
  app.get("/reddit-oauth/api/info", (c) => {
    const token = /^bearer (\S+)$/i.exec(c.req.header("authorization") ?? "")?.[1];
    if (!token || !tokens.has(token)) return c.json({ message: "Unauthorized", error: 401 }, 401);
    return info(c);
  });
}
