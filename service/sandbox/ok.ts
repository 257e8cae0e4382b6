import type { Hono } from "hono";
import { answerMode, jsonOrHtml, plainErrors, TwinState, type Delays } from "./twin.ts";

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
  app.get("/ok/dk", (c) =>
    answerMode(c, twin, delays, c.req.query("ref") ?? "", {
      ...plainErrors(c),
      garbageBodies: OK_GARBAGE_BODIES,
      garbage: (body) => jsonOrHtml(c, body, "text/html; charset=utf-8"),
      ok: (derived, none) => {
        if (c.req.query("st.cmd") !== "extLike" || c.req.query("tp") !== "json") return c.text("st.cmd=extLike&tp=json expected", 400);
        return c.json({ count: String(none ? 0 : derived.ok) });
      },
    }),
  );
}
