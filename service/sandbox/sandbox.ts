/**
 * A real HTTP upstream that speaks each network's wire format (one twin per network: facebook.ts,
 * pinterest.ts, reddit.ts, hackernews.ts, bluesky.ts, vk.ts, ok.ts, tumblr.ts), with knobs to make it slow,
 * throttle, fail or hang (control.ts). Counts are derived from a hash of the URL (derive-counts.ts), so they
 * are stable across runs.
 */
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { SANDBOX_HEADER } from "../networks/types.ts";
import { BlueskyTwin, mountBluesky } from "./bluesky.ts";
import { mountControl, type MoreTwins, type Twins } from "./control.ts";
import { mountFacebook } from "./facebook.ts";
import { mountHackerNews } from "./hackernews.ts";
import { mountOk } from "./ok.ts";
import { mountPinterest } from "./pinterest.ts";
import { mountReddit } from "./reddit.ts";
import { mountTumblr } from "./tumblr.ts";
import { Delays, TwinState } from "./twin.ts";
import { mountVk } from "./vk.ts";

export interface SandboxOptions {
  port?: number;
  host?: string;
  /** Initial latency of every network. */
  latencyMs?: number;
  /** The clock Bluesky's twin issues and checks session tokens by (default: Date.now). */
  now?: () => number;
}

/** The base URL each adapter of the networks beyond Facebook and Pinterest takes, as the real network's. */
export interface MoreTwinUrls {
  /** for https://www.reddit.com */
  redditUrl: string;
  /** for https://oauth.reddit.com */
  redditOAuthUrl: string;
  /** for https://hn.algolia.com/api/v1 */
  hackerNewsUrl: string;
  /** for https://bsky.social/xrpc */
  blueskyUrl: string;
  /** for https://vk.com */
  vkUrl: string;
  /** for https://connect.ok.ru */
  okUrl: string;
  /** for https://api.tumblr.com */
  tumblrUrl: string;
}

export interface Sandbox extends MoreTwinUrls {
  origin: string;
  facebookGraphUrl: string;
  pinterestCountUrl: string;
  close(): Promise<void>;
}

export function moreTwinUrls(origin: string): MoreTwinUrls {
  return {
    redditUrl: `${origin}/reddit`,
    redditOAuthUrl: `${origin}/reddit-oauth`,
    hackerNewsUrl: `${origin}/hn/api/v1`,
    blueskyUrl: `${origin}/bluesky/xrpc`,
    vkUrl: `${origin}/vk`,
    okUrl: `${origin}/ok`,
    tumblrUrl: `${origin}/tumblr`,
  };
}

export function createSandboxApp(options: { latencyMs?: number; now?: () => number } = {}): { app: Hono; releaseHanging: () => void } {
  const latencyMs = options.latencyMs ?? 0;
  const twins: Twins = {
    facebook: new TwinState({ mode: "ok", latencyMs }),
    pinterest: new TwinState({ mode: "ok", latencyMs }),
  };
  const more: MoreTwins = {
    reddit: new TwinState({ mode: "ok", latencyMs }),
    hackernews: new TwinState({ mode: "ok", latencyMs }),
    bluesky: new BlueskyTwin({ mode: "ok", latencyMs }),
    vk: new TwinState({ mode: "ok", latencyMs }),
    ok: new TwinState({ mode: "ok", latencyMs }),
    tumblr: new TwinState({ mode: "ok", latencyMs }),
  };
  const delays = new Delays();
  const app = new Hono();
  app.use("*", async (c, next) => {
    await next();
    c.res.headers.set(SANDBOX_HEADER, "1");
  });
  mountFacebook(app, twins.facebook, delays);
  mountPinterest(app, twins.pinterest, delays);
  mountReddit(app, more.reddit, delays);
  mountHackerNews(app, more.hackernews, delays);
  mountBluesky(app, more.bluesky, delays, options.now ?? Date.now);
  mountVk(app, more.vk, delays);
  mountOk(app, more.ok, delays);
  mountTumblr(app, more.tumblr, delays);
  mountControl(app, twins, more);
  app.notFound((c) => c.json({ error: "not found" }, 404));
  return { app, releaseHanging: () => delays.releaseAll() };
}

export function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? "127.0.0.1";
  const { app, releaseHanging } = createSandboxApp({ latencyMs: options.latencyMs, now: options.now });
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port: options.port ?? 0, hostname: host }, (info: AddressInfo) => {
      const origin = `http://${host.includes(":") ? `[${host}]` : host}:${info.port}`;
      resolve({
        origin,
        facebookGraphUrl: `${origin}/facebook/v24.0`,
        pinterestCountUrl: `${origin}/pinterest/v1/urls/count.json`,
        ...moreTwinUrls(origin),
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
