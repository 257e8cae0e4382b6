import type { Context, Hono } from "hono";
import { z } from "zod";
import { deriveCounts, type FacebookEngagement } from "./derive-counts.ts";
import { countSchema, gone, TwinState, type Delays } from "./twin.ts";

/** Facebook Graph's twin: `GET /facebook/{version}/?id=URL&fields=engagement,og_object&access_token=…`. */
export const FACEBOOK_MODES = ["ok", "fail", "throttle", "throttle-613", "bare-403", "429", "garbage", "hang", "expired-token"] as const;
export type FacebookMode = (typeof FACEBOOK_MODES)[number];

/** Bodies served in "garbage" mode; which one depends on the URL. */
export const FACEBOOK_GARBAGE_BODIES = [
  '{"engagement":{"share_count":"lots"},"id":"x"}',
  "<!DOCTYPE html><html><body>Sorry, something went wrong.</body></html>",
  '{"engagement":{"reaction_count":-5,"comment_count":1,"share_count":2,"comment_plugin_count":0}}',
  '{"engagement":[1,2,3]}',
] as const;

/** Engagement numbers set by hand for a URL (the rest stay derived). */
export const facebookOverride = z
  .strictObject({
    reaction_count: countSchema.optional(),
    comment_count: countSchema.optional(),
    share_count: countSchema.optional(),
    comment_plugin_count: countSchema.optional(),
  })
  .optional();
export type FacebookOverride = Partial<FacebookEngagement>;

export type FacebookTwin = TwinState<FacebookMode, FacebookOverride>;

function graphError(code: number, message: string, extra: Record<string, unknown> = {}) {
  return { error: { message, type: "OAuthException", code, ...extra, fbtrace_id: "ASandboxTraceId0000000" } };
}

export function mountFacebook(app: Hono, twin: FacebookTwin, delays: Delays): void {
  const answer = async (c: Context) => {
    const url = c.req.query("id") ?? "";
    twin.record(url);
    const { mode } = twin.knobs;
    if (!(await delays.wait(c, twin.knobs))) return gone();
    const derived = deriveCounts(url);
    switch (mode) {
      case "fail":
        return c.json(graphError(1, "An unknown error has occurred.", { is_transient: true }), 500);
      case "throttle":
        return c.json(graphError(4, "(#4) Application request limit reached", { is_transient: true }), 403);
      case "throttle-613":
        return c.json(graphError(613, "(#613) Calls to this api have exceeded the rate limit.", { is_transient: true }), 403);
      case "bare-403":
        return derived.variant % 2 === 0 ? c.body(null, 403) : c.html("<html><body><h1>403 Forbidden</h1></body></html>", 403);
      case "429":
        return c.text("Too Many Requests", 429, { "retry-after": "60" });
      case "expired-token":
        return c.json(graphError(190, "Error validating access token: Session has expired.", { error_subcode: 463 }), 400);
      case "garbage": {
        const body = FACEBOOK_GARBAGE_BODIES[derived.variant % FACEBOOK_GARBAGE_BODIES.length]!;
        return c.body(body, 200, { "content-type": body.startsWith("<") ? "text/html" : "application/json" });
      }
    }
    if (!c.req.query("access_token")) return c.json(graphError(104, "An access token is required to request this resource."), 400);
    if (!url) return c.json(graphError(100, "The parameter id is required"), 400);
    const fields = (c.req.query("fields") ?? "").split(",");
    const body: Record<string, unknown> = {};
    if (fields.includes("engagement")) body.engagement = { ...derived.facebook, ...twin.overrides.get(url) };
    if (fields.includes("og_object") && derived.ogObject) body.og_object = derived.ogObject;
    body.id = url;
    return c.json(body);
  };
  app.get("/facebook/:version/", answer);
  app.get("/facebook/:version", answer);
}
