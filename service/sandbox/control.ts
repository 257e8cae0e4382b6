import type { Context, Hono } from "hono";
import { z } from "zod";
import { BLUESKY_MODES, type BlueskyTwin } from "./bluesky.ts";
import { deriveCounts } from "./derive-counts.ts";
import { FACEBOOK_MODES, facebookOverride, type FacebookTwin } from "./facebook.ts";
import { HACKERNEWS_MODES, type HackerNewsTwin } from "./hackernews.ts";
import { OK_MODES, type OkTwin } from "./ok.ts";
import { PINTEREST_MODES, pinterestOverride, type PinterestTwin } from "./pinterest.ts";
import { REDDIT_MODES, type RedditTwin } from "./reddit.ts";
import { TUMBLR_MODES, type TumblrTwin } from "./tumblr.ts";
import { VK_MODES, type VkTwin } from "./vk.ts";
import { latencySchema, type NetworkKnobs } from "./twin.ts";

export interface Twins {
  facebook: FacebookTwin;
  pinterest: PinterestTwin;
}

export type SandboxKnobs = { [N in keyof Twins]: Twins[N]["knobs"] };

export interface SandboxStats {
  facebook: { calls: number };
  pinterest: { calls: number };
  facebookByUrl: Record<string, number>;
  pinterestByUrl: Record<string, number>;
}

/**
 * The twins of the networks beyond Facebook and Pinterest. Their knobs and stats have routes of their own
 * (`/__sandbox/more/…`), so the answers of `/__sandbox/knobs` and `/__sandbox/stats` stay as they were.
 */
export interface MoreTwins {
  reddit: RedditTwin;
  hackernews: HackerNewsTwin;
  bluesky: BlueskyTwin;
  vk: VkTwin;
  ok: OkTwin;
  tumblr: TumblrTwin;
}

export type MoreSandboxKnobs = { [N in keyof MoreTwins]: MoreTwins[N]["knobs"] };

interface TwinStats {
  calls: number;
  byUrl: Record<string, number>;
}

/** `calls`: count requests (Bluesky: searchPosts pages); Bluesky's `sessions`: createSession calls. */
export type MoreSandboxStats = { [N in Exclude<keyof MoreTwins, "bluesky">]: TwinStats } & { bluesky: TwinStats & { sessions: number } };

const knobsPatch = <M extends readonly [string, ...string[]]>(modes: M) =>
  z.strictObject({ mode: z.enum(modes).optional(), latencyMs: latencySchema.optional() }).optional();
const knobsSchema = z.strictObject({ facebook: knobsPatch(FACEBOOK_MODES), pinterest: knobsPatch(PINTEREST_MODES) });
const moreKnobsPatch = <M extends readonly [string, ...string[]]>(modes: M) =>
  z
    .strictObject({ mode: z.enum(modes).optional(), latencyMs: latencySchema.optional(), retryAfterSeconds: z.number().int().min(0).max(86_400).optional() })
    .optional();
const moreKnobsSchema = z.strictObject({
  reddit: moreKnobsPatch(REDDIT_MODES),
  hackernews: moreKnobsPatch(HACKERNEWS_MODES),
  bluesky: moreKnobsPatch(BLUESKY_MODES),
  vk: moreKnobsPatch(VK_MODES),
  ok: moreKnobsPatch(OK_MODES),
  tumblr: moreKnobsPatch(TUMBLR_MODES),
});
const countsSchema = z.strictObject({ url: z.string(), facebook: facebookOverride, pinterest: pinterestOverride });

async function readJson(c: Context): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    return undefined;
  }
}

function patch<M extends string>(knobs: NetworkKnobs<M>, change: Partial<NetworkKnobs<M>> | undefined): NetworkKnobs<M> {
  return { ...knobs, ...change };
}

const twinStats = (twin: { calls: number; callsByUrl: Map<string, number> }): TwinStats => ({
  calls: twin.calls,
  byUrl: Object.fromEntries(twin.callsByUrl),
});

/** The sandbox's own API under /__sandbox/: knobs, counts set by hand, call counts, and a reset of every twin. */
export function mountControl(app: Hono, twins: Twins, more: MoreTwins): void {
  const knobs = (): SandboxKnobs => ({ facebook: twins.facebook.knobs, pinterest: twins.pinterest.knobs });

  app.get("/__sandbox/knobs", (c) => c.json(knobs()));
  app.put("/__sandbox/knobs", async (c) => {
    const parsed = knobsSchema.safeParse(await readJson(c));
    if (!parsed.success) return c.json({ error: z.prettifyError(parsed.error) }, 400);
    twins.facebook.knobs = patch(twins.facebook.knobs, parsed.data.facebook);
    twins.pinterest.knobs = patch(twins.pinterest.knobs, parsed.data.pinterest);
    return c.json(knobs());
  });

  app.post("/__sandbox/counts", async (c) => {
    const parsed = countsSchema.safeParse(await readJson(c));
    if (!parsed.success) return c.json({ error: z.prettifyError(parsed.error) }, 400);
    const { url, facebook, pinterest } = parsed.data;
    if (facebook) twins.facebook.overrides.set(url, { ...twins.facebook.overrides.get(url), ...facebook });
    if (pinterest !== undefined) twins.pinterest.overrides.set(url, pinterest);
    const derived = deriveCounts(url);
    return c.json({
      url,
      facebook: { ...derived.facebook, ...twins.facebook.overrides.get(url) },
      pinterest: twins.pinterest.overrides.get(url) ?? derived.pinterest,
    });
  });

  app.get("/__sandbox/stats", (c) => {
    const body: SandboxStats = {
      facebook: { calls: twins.facebook.calls },
      pinterest: { calls: twins.pinterest.calls },
      facebookByUrl: Object.fromEntries(twins.facebook.callsByUrl),
      pinterestByUrl: Object.fromEntries(twins.pinterest.callsByUrl),
    };
    return c.json(body);
  });

  const moreKnobs = (): MoreSandboxKnobs => ({
    reddit: more.reddit.knobs,
    hackernews: more.hackernews.knobs,
    bluesky: more.bluesky.knobs,
    vk: more.vk.knobs,
    ok: more.ok.knobs,
    tumblr: more.tumblr.knobs,
  });

  app.get("/__sandbox/more/knobs", (c) => c.json(moreKnobs()));
  app.put("/__sandbox/more/knobs", async (c) => {
    const parsed = moreKnobsSchema.safeParse(await readJson(c));
    if (!parsed.success) return c.json({ error: z.prettifyError(parsed.error) }, 400);
    more.reddit.knobs = patch(more.reddit.knobs, parsed.data.reddit);
    more.hackernews.knobs = patch(more.hackernews.knobs, parsed.data.hackernews);
    more.bluesky.knobs = patch(more.bluesky.knobs, parsed.data.bluesky);
    more.vk.knobs = patch(more.vk.knobs, parsed.data.vk);
    more.ok.knobs = patch(more.ok.knobs, parsed.data.ok);
    more.tumblr.knobs = patch(more.tumblr.knobs, parsed.data.tumblr);
    return c.json(moreKnobs());
  });

  app.get("/__sandbox/more/stats", (c) => {
    const body: MoreSandboxStats = {
      reddit: twinStats(more.reddit),
      hackernews: twinStats(more.hackernews),
      bluesky: { ...twinStats(more.bluesky), sessions: more.bluesky.sessions },
      vk: twinStats(more.vk),
      ok: twinStats(more.ok),
      tumblr: twinStats(more.tumblr),
    };
    return c.json(body);
  });

  app.post("/__sandbox/reset", (c) => {
    twins.facebook.reset();
    twins.pinterest.reset();
    for (const twin of Object.values(more)) twin.reset();
    return c.json({ ok: true });
  });
}
