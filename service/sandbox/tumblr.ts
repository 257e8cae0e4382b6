import type { Hono } from "hono";
import { answerMode, TwinState, type Delays } from "./twin.ts";

/**
 * Tumblr's twin: `GET /tumblr/v2/share/stats?url=URL` answers `{"meta":{"status":200,"msg":"OK"},"response":{"note_count":N}}`.
 * `none`: a note_count of 0; `throttle`: 429 with `Retry-After: 30`; `429`: 429 without it.
 */
export const TUMBLR_MODES = ["ok", "none", "fail", "throttle", "429", "garbage", "hang"] as const;
export type TumblrMode = (typeof TUMBLR_MODES)[number];

/** Bodies served in "garbage" mode; which one depends on the URL. */
export const TUMBLR_GARBAGE_BODIES = [
  "<html><body><h1>Tumblr is temporarily over capacity</h1></body></html>",
  '{"meta":{"status":200,"msg":"OK"},"response":{"note_count":"many"}}',
  '{"meta":{"status":200,"msg":"OK"},"response":{"note_count":-4}}',
  '{"response":{"note_count":3}}',
] as const;

export type TumblrTwin = TwinState<TumblrMode, never>;

const envelope = (status: number, msg: string) => ({ meta: { status, msg }, response: [] });

export function mountTumblr(app: Hono, twin: TumblrTwin, delays: Delays): void {
  app.get("/tumblr/v2/share/stats", (c) => {
    const url = c.req.query("url") ?? "";
    return answerMode(c, twin, delays, url, {
      fail: () => c.json(envelope(500, "Server Error"), 500),
      tooMany: (headers) => c.json(envelope(429, "Limit Exceeded"), 429, headers),
      garbageBodies: TUMBLR_GARBAGE_BODIES,
      ok: (derived, none) => c.json({ meta: { status: 200, msg: "OK" }, response: { url, note_count: none ? 0 : derived.tumblr } }),
    });
  });
}
