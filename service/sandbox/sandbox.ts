/**
 * A real HTTP upstream that speaks each network's wire format (one twin per network: facebook.ts,
 * pinterest.ts), with knobs to make it slow, throttle, fail or hang (control.ts). Counts are derived from a
 * hash of the URL (derive-counts.ts), so they are stable across runs.
 */
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { SANDBOX_HEADER } from "../networks/types.ts";
import { mountControl, type Twins } from "./control.ts";
import { mountFacebook } from "./facebook.ts";
import { mountPinterest } from "./pinterest.ts";
import { Delays, TwinState } from "./twin.ts";

export interface SandboxOptions {
  port?: number;
  host?: string;
  /** Initial latency of every network. */
  latencyMs?: number;
}

export interface Sandbox {
  origin: string;
  facebookGraphUrl: string;
  pinterestCountUrl: string;
  close(): Promise<void>;
}

export function createSandboxApp(options: { latencyMs?: number } = {}): { app: Hono; releaseHanging: () => void } {
  const latencyMs = options.latencyMs ?? 0;
  const twins: Twins = {
    facebook: new TwinState({ mode: "ok", latencyMs }),
    pinterest: new TwinState({ mode: "ok", latencyMs }),
  };
  const delays = new Delays();
  const app = new Hono();
  app.use("*", async (c, next) => {
    await next();
    c.res.headers.set(SANDBOX_HEADER, "1");
  });
  mountFacebook(app, twins.facebook, delays);
  mountPinterest(app, twins.pinterest, delays);
  mountControl(app, twins);
  app.notFound((c) => c.json({ error: "not found" }, 404));
  return { app, releaseHanging: () => delays.releaseAll() };
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
