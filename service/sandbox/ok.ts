import type { Hono } from "hono";
import { deriveMoreCounts } from "./derive-counts.ts";
import { gone, TwinState, type Delays } from "./twin.ts";

/**
 * OK.ru's like-button twin: `GET /ok/dk?st.cmd=extLike&tp=json&ref=URL` answers `{"count":"N"}` (a string,
 * as OK.ru sends it). `none`: `{"count":"0"}`; `throttle`: 429 with `Retry-After: 30`; `429`: 429 without it.
 */
export const OK_MODES = ["ok", "none", "fail", "throttle", "429", "garbage", "hang"] as const;
export type OkMode = (typeof OK_MODES)[number];

/** Bodies served in "garbage" mode; which one depends on the URL. */
export const OK_GARBAGE_BODIES = ["<html><body>Сервис временно недоступен</body></html>", '{"count":"lots"}', '{"count":'] as const;

export type OkTwin = TwinState<OkMode, never>;

export function mountOk(app: Hono, twin: OkTwin, delays: Delays): void {
  app.get("/ok/dk", async (c) => {
    const url = c.req.query("ref") ?? "";
    twin.record(url);
    const { mode } = twin.knobs;
    if (!(await delays.wait(c, twin.knobs))) return gone();
    const derived = deriveMoreCounts(url);
    switch (mode) {
      case "fail":
        return c.html("<html><body>Internal Server Error</body></html>", 500);
      case "throttle":
        return c.text("Too Many Requests", 429, { "retry-after": "30" });
      case "429":
        return c.text("Too Many Requests", 429);
      case "garbage": {
        const body = OK_GARBAGE_BODIES[derived.variant % OK_GARBAGE_BODIES.length]!;
        return c.body(body, 200, { "content-type": body.startsWith("<") ? "text/html; charset=utf-8" : "application/json" });
      }
    }
    if (c.req.query("st.cmd") !== "extLike" || c.req.query("tp") !== "json") return c.text("st.cmd=extLike&tp=json expected", 400);
    return c.json({ count: String(mode === "none" ? 0 : derived.ok) });
  });
}
