/**
 * A real HTTP upstream that speaks Facebook Graph's and Pinterest's wire formats, with knobs to make it
 * slow, throttle, fail or hang. Counts are derived from a hash of the URL, so they are stable across runs.
 */
import { createHash } from "node:crypto";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import type { Context } from "hono";
import { z } from "zod";
import { SANDBOX_HEADER } from "../networks/types.ts";

export const FACEBOOK_MODES = ["ok", "fail", "throttle", "throttle-613", "bare-403", "429", "garbage", "hang", "expired-token"] as const;
export const PINTEREST_MODES = ["ok", "fail", "dash", "garbage", "429", "hang"] as const;
export type FacebookMode = (typeof FACEBOOK_MODES)[number];
export type PinterestMode = (typeof PINTEREST_MODES)[number];

export interface NetworkKnobs<M extends string> {
  mode: M;
  latencyMs: number;
}

export interface SandboxKnobs {
  facebook: NetworkKnobs<FacebookMode>;
  pinterest: NetworkKnobs<PinterestMode>;
}

export interface FacebookEngagement {
  reaction_count: number;
  comment_count: number;
  share_count: number;
  comment_plugin_count: number;
}

export interface SandboxOptions {
  port?: number;
  host?: string;
  /** Initial latency of both networks. */
  latencyMs?: number;
}

export interface Sandbox {
  origin: string;
  facebookGraphUrl: string;
  pinterestCountUrl: string;
  close(): Promise<void>;
}

export interface SandboxStats {
  facebook: { calls: number };
  pinterest: { calls: number };
  facebookByUrl: Record<string, number>;
  pinterestByUrl: Record<string, number>;
}

/** Bodies served in Facebook's "garbage" mode; which one depends on the URL. */
export const FACEBOOK_GARBAGE_BODIES = [
  '{"engagement":{"share_count":"lots"},"id":"x"}',
  "<!DOCTYPE html><html><body>Sorry, something went wrong.</body></html>",
  '{"engagement":{"reaction_count":-5,"comment_count":1,"share_count":2,"comment_plugin_count":0}}',
  '{"engagement":[1,2,3]}',
] as const;

/** Bodies served in Pinterest's "garbage" mode; which one depends on the URL. */
export const PINTEREST_GARBAGE_BODIES = ["receiveCount(not json", "<html><body>502 Bad Gateway</body></html>", "receiveCount({\"url\":"] as const;

const MAX_LATENCY_MS = 10 * 60 * 1000;
const latencySchema = z.number().int().min(0).max(MAX_LATENCY_MS);
const knobsSchema = z.strictObject({
  facebook: z.strictObject({ mode: z.enum(FACEBOOK_MODES).optional(), latencyMs: latencySchema.optional() }).optional(),
  pinterest: z.strictObject({ mode: z.enum(PINTEREST_MODES).optional(), latencyMs: latencySchema.optional() }).optional(),
});
const countSchema = z.number().int().min(0);
const overrideSchema = z.strictObject({
  url: z.string(),
  facebook: z
    .strictObject({
      reaction_count: countSchema.optional(),
      comment_count: countSchema.optional(),
      share_count: countSchema.optional(),
      comment_plugin_count: countSchema.optional(),
    })
    .optional(),
  /** A string is served verbatim as the JSON count, to imitate odd answers such as "12" or "-". */
  pinterest: z.union([countSchema, z.string()]).optional(),
});

interface Derived {
  facebook: FacebookEngagement;
  pinterest: number;
  ogObject: { id: string; title: string; type: string; updated_time: string } | null;
  /** Picks a variant among equivalent failure bodies. */
  variant: number;
}

/** Counts derived from sha256(url); about 1 URL in 16 has no engagement at all. */
export function deriveCounts(url: string): Derived {
  const h = createHash("sha256").update(url).digest();
  const zero = h[0]! < 16;
  const n = (offset: number, max: number) => (zero ? 0 : h.readUInt16BE(offset) % max);
  const hasOg = !zero && h[2]! % 4 !== 0;
  const updated = new Date(Date.UTC(2020, 0, 1) + (h.readUInt32BE(20) % (5 * 365 * 86400)) * 1000);
  return {
    facebook: {
      reaction_count: n(4, 5000),
      comment_count: n(6, 800),
      share_count: n(8, 3000),
      comment_plugin_count: n(10, 50),
    },
    pinterest: n(12, 2000),
    ogObject: hasOg
      ? {
          id: (h.readBigUInt64BE(24) % 10n ** 16n).toString(),
          title: `Sandbox page ${h.toString("hex", 0, 4)}`,
          type: "website",
          updated_time: updated.toISOString().replace(/\.\d{3}Z$/, "+0000"),
        }
      : null,
    variant: h[3]!,
  };
}

function initialKnobs(latencyMs: number): SandboxKnobs {
  return { facebook: { mode: "ok", latencyMs }, pinterest: { mode: "ok", latencyMs } };
}

/** Resolves after ms (true), or early when the client goes away (false). */
function wait(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function graphError(code: number, message: string, extra: Record<string, unknown> = {}) {
  return { error: { message, type: "OAuthException", code, ...extra, fbtrace_id: "ASandboxTraceId0000000" } };
}

function bump(map: Map<string, number>, key: string) {
  map.set(key, (map.get(key) ?? 0) + 1);
}

const CALLBACK_NAME = /^[A-Za-z_$][\w$.]{0,63}$/;

export function createSandboxApp(options: { latencyMs?: number } = {}) {
  const baseLatency = options.latencyMs ?? 0;
  let knobs = initialKnobs(baseLatency);
  const overrides = new Map<string, { facebook?: Partial<FacebookEngagement>; pinterest?: number | string }>();
  const stats = { facebook: 0, pinterest: 0, facebookByUrl: new Map<string, number>(), pinterestByUrl: new Map<string, number>() };
  /** Requests held open by "hang" mode, released when the sandbox closes. */
  const hanging = new Set<AbortController>();

  /** Waits out the latency knob, or forever in "hang" mode; false when the client gave up first. */
  async function delay(c: Context, latencyMs: number, hang: boolean): Promise<boolean> {
    if (!hang && latencyMs === 0) return true;
    const signal = c.req.raw.signal;
    if (latencyMs > 0 && !(await wait(latencyMs, signal))) return false;
    if (!hang) return true;
    const release = new AbortController();
    hanging.add(release);
    await wait(MAX_LATENCY_MS * 1000, AbortSignal.any([signal, release.signal]));
    hanging.delete(release);
    return false;
  }

  const gone = () => new Response(null, { status: 499 });

  const app = new Hono();
  app.use("*", async (c, next) => {
    await next();
    c.res.headers.set(SANDBOX_HEADER, "1");
  });

  const facebook = async (c: Context) => {
    const url = c.req.query("id") ?? "";
    stats.facebook++;
    bump(stats.facebookByUrl, url);
    const { mode, latencyMs } = knobs.facebook;
    if (!(await delay(c, latencyMs, mode === "hang"))) return gone();
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
    const token = c.req.query("access_token");
    if (!token) {
      return c.json(graphError(104, "An access token is required to request this resource."), 400);
    }
    if (!url) {
      return c.json(graphError(100, "The parameter id is required"), 400);
    }
    const fields = (c.req.query("fields") ?? "").split(",");
    const answer: Record<string, unknown> = {};
    if (fields.includes("engagement")) {
      answer.engagement = { ...derived.facebook, ...overrides.get(url)?.facebook };
    }
    if (fields.includes("og_object") && derived.ogObject) answer.og_object = derived.ogObject;
    answer.id = url;
    return c.json(answer);
  };
  app.get("/facebook/:version/", facebook);
  app.get("/facebook/:version", facebook);

  app.get("/pinterest/v1/urls/count.json", async (c) => {
    const url = c.req.query("url") ?? "";
    stats.pinterest++;
    bump(stats.pinterestByUrl, url);
    const { mode, latencyMs } = knobs.pinterest;
    if (!(await delay(c, latencyMs, mode === "hang"))) return gone();
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
    const count = overrides.get(url)?.pinterest ?? derived.pinterest;
    return jsonp(`${callback}(${JSON.stringify({ url, count })})`);
  });

  const readJson = async (c: Context): Promise<unknown> => {
    try {
      return await c.req.json();
    } catch {
      return undefined;
    }
  };

  app.get("/__sandbox/knobs", (c) => c.json(knobs));
  app.put("/__sandbox/knobs", async (c) => {
    const parsed = knobsSchema.safeParse(await readJson(c));
    if (!parsed.success) return c.json({ error: z.prettifyError(parsed.error) }, 400);
    knobs = {
      facebook: { ...knobs.facebook, ...parsed.data.facebook },
      pinterest: { ...knobs.pinterest, ...parsed.data.pinterest },
    };
    return c.json(knobs);
  });

  app.post("/__sandbox/counts", async (c) => {
    const parsed = overrideSchema.safeParse(await readJson(c));
    if (!parsed.success) return c.json({ error: z.prettifyError(parsed.error) }, 400);
    const { url, facebook: fb, pinterest } = parsed.data;
    const previous = overrides.get(url);
    const next = {
      facebook: fb ? { ...previous?.facebook, ...fb } : previous?.facebook,
      pinterest: pinterest ?? previous?.pinterest,
    };
    overrides.set(url, next);
    const derived = deriveCounts(url);
    return c.json({ url, facebook: { ...derived.facebook, ...next.facebook }, pinterest: next.pinterest ?? derived.pinterest });
  });

  app.get("/__sandbox/stats", (c) => {
    const body: SandboxStats = {
      facebook: { calls: stats.facebook },
      pinterest: { calls: stats.pinterest },
      facebookByUrl: Object.fromEntries(stats.facebookByUrl),
      pinterestByUrl: Object.fromEntries(stats.pinterestByUrl),
    };
    return c.json(body);
  });

  app.post("/__sandbox/reset", (c) => {
    knobs = initialKnobs(baseLatency);
    overrides.clear();
    stats.facebook = 0;
    stats.pinterest = 0;
    stats.facebookByUrl.clear();
    stats.pinterestByUrl.clear();
    return c.json({ ok: true });
  });

  app.notFound((c) => c.json({ error: "not found" }, 404));

  const releaseHanging = () => {
    for (const release of hanging) release.abort();
    hanging.clear();
  };
  return { app, releaseHanging };
}

export function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? "127.0.0.1";
  const { app, releaseHanging } = createSandboxApp({ latencyMs: options.latencyMs });
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port: options.port ?? 0, hostname: host }, (info: AddressInfo) => {
      const origin = `http://${host.includes(":") ? `[${host}]` : host}:${info.port}`;
      resolve({
        origin,
        facebookGraphUrl: `${origin}/facebook/v24.0`,
        pinterestCountUrl: `${origin}/pinterest/v1/urls/count.json`,
        close: () =>
          new Promise<void>((done, fail) => {
            releaseHanging();
            server.close((err) => (err ? fail(err) : done()));
            if ("closeAllConnections" in server) server.closeAllConnections();
          }),
      });
    });
    server.once("error", reject);
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.env.SANDBOX_PORT ?? 4100);
  const latencyMs = process.env.SANDBOX_LATENCY_MS ? Number(process.env.SANDBOX_LATENCY_MS) : undefined;
  const sandbox = await startSandbox({ port, host: process.env.SANDBOX_HOST, latencyMs });
  const { close: _close, ...urls } = sandbox;
  console.log(JSON.stringify(urls));
  const stop = () => void sandbox.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}
