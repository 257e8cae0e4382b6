import type { Context, Hono } from "hono";
import { z } from "zod";
import { deriveCounts } from "./derive-counts.ts";
import { FACEBOOK_MODES, facebookOverride, type FacebookTwin } from "./facebook.ts";
import { PINTEREST_MODES, pinterestOverride, type PinterestTwin } from "./pinterest.ts";
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

const knobsPatch = <M extends readonly [string, ...string[]]>(modes: M) =>
  z.strictObject({ mode: z.enum(modes).optional(), latencyMs: latencySchema.optional() }).optional();
const knobsSchema = z.strictObject({ facebook: knobsPatch(FACEBOOK_MODES), pinterest: knobsPatch(PINTEREST_MODES) });
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

/** The sandbox's own API under /__sandbox/: knobs, counts set by hand, call counts, and a reset. */
export function mountControl(app: Hono, twins: Twins): void {
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

  app.post("/__sandbox/reset", (c) => {
    twins.facebook.reset();
    twins.pinterest.reset();
    return c.json({ ok: true });
  });
}
