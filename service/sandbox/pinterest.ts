import type { Hono } from "hono";
import { z } from "zod";
import { deriveCounts } from "./derive-counts.ts";
import { countSchema, gone, TwinState, type Delays } from "./twin.ts";

/** Pinterest's count endpoint's twin: `GET /pinterest/v1/urls/count.json?url=URL&callback=…`, answered as JSONP. */
export const PINTEREST_MODES = ["ok", "fail", "dash", "garbage", "429", "hang"] as const;
export type PinterestMode = (typeof PINTEREST_MODES)[number];

/** Bodies served in "garbage" mode; which one depends on the URL. */
export const PINTEREST_GARBAGE_BODIES = ["receiveCount(not json", "<html><body>502 Bad Gateway</body></html>", "receiveCount({\"url\":"] as const;

/** A count set by hand for a URL; a string is served verbatim as the JSON count, to imitate odd answers such as "12" or "-". */
export const pinterestOverride = z.union([countSchema, z.string()]).optional();
export type PinterestOverride = number | string;

export type PinterestTwin = TwinState<PinterestMode, PinterestOverride>;

const CALLBACK_NAME = /^[A-Za-z_$][\w$.]{0,63}$/;

export function mountPinterest(app: Hono, twin: PinterestTwin, delays: Delays): void {
  app.get("/pinterest/v1/urls/count.json", async (c) => {
    const url = c.req.query("url") ?? "";
    twin.record(url);
    const { mode } = twin.knobs;
    if (!(await delays.wait(c, twin.knobs))) return gone();
    const requested = c.req.query("callback");
    const callback = requested && CALLBACK_NAME.test(requested) ? requested : "receiveCount";
    const derived = deriveCounts(url);
    const jsonp = (body: string) => c.body(body, 200, { "content-type": "application/javascript; charset=utf-8" });
    switch (mode) {
      case "fail":
        return c.text("Internal Server Error", 500);
      case "429":
        return c.text("Too Many Requests", 429);
      case "dash":
        return jsonp(`${callback}(${JSON.stringify({ url, count: "-" })})`);
      case "garbage":
        return jsonp(PINTEREST_GARBAGE_BODIES[derived.variant % PINTEREST_GARBAGE_BODIES.length]!);
    }
    const count = twin.overrides.get(url) ?? derived.pinterest;
    return jsonp(`${callback}(${JSON.stringify({ url, count })})`);
  });
}
