import type { Hono } from "hono";
import { deriveMoreCounts } from "./derive-counts.ts";
import { gone, TwinState, type Delays } from "./twin.ts";

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
  app.get("/tumblr/v2/share/stats", async (c) => {
    const url = c.req.query("url") ?? "";
    twin.record(url);
    const { mode } = twin.knobs;
    if (!(await delays.wait(c, twin.knobs))) return gone();
    const derived = deriveMoreCounts(url);
    switch (mode) {
      case "fail":
        return c.json(envelope(500, "Server Error"), 500);
      case "throttle":
        return c.json(envelope(429, "Limit Exceeded"), 429, { "retry-after": "30" });
      case "429":
        return c.json(envelope(429, "Limit Exceeded"), 429);
      case "garbage": {
        const body = TUMBLR_GARBAGE_BODIES[derived.variant % TUMBLR_GARBAGE_BODIES.length]!;
        return c.body(body, 200, { "content-type": body.startsWith("<") ? "text/html" : "application/json" });
      }
    }
    return c.json({ meta: { status: 200, msg: "OK" }, response: { url, note_count: mode === "none" ? 0 : derived.tumblr } });
  });
}
