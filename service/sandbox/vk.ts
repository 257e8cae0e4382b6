import type { Hono } from "hono";
import { answerMode, plainErrors, TwinState, type Delays } from "./twin.ts";

/**
 * VK's share-button twin: `GET /vk/share.php?act=count&index=I&url=URL` answers `VK.Share.count(I, N);`.
 * `none`: a count of 0; `throttle`: 429 with `Retry-After: 30`; `429`: 429 without it.
 */
export const VK_MODES = ["ok", "none", "fail", "throttle", "429", "garbage", "hang"] as const;
export type VkMode = (typeof VK_MODES)[number];

/** Bodies served in "garbage" mode; which one depends on the URL. */
export const VK_GARBAGE_BODIES = [
  "<html><body>Error 502</body></html>",
  'VK.Share.count(1, "12");',
  "VK.Share.count(1);",
  "VK.Share.count(1, -3);",
] as const;

export type VkTwin = TwinState<VkMode, never>;

export function mountVk(app: Hono, twin: VkTwin, delays: Delays): void {
  app.get("/vk/share.php", (c) => {
    const script = (body: string) => c.body(body, 200, { "content-type": "application/javascript; charset=utf-8" });
    return answerMode(c, twin, delays, c.req.query("url") ?? "", {
      ...plainErrors(c),
      garbageBodies: VK_GARBAGE_BODIES,
      garbage: script,
      ok: (derived, none) => {
        if (c.req.query("act") !== "count") return c.text("act=count expected", 400);
        const index = /^\d{1,6}$/.test(c.req.query("index") ?? "") ? c.req.query("index") : "0";
        return script(`VK.Share.count(${index}, ${none ? 0 : derived.vk});`);
      },
    });
  });
}
