import type http from "node:http";
import type { Env } from "../lib/env.ts";
import { isApiRequest } from "../service/http/paths.ts";
import { apiListener } from "../service/http/api-listener.ts";
import { boot, drain, listen, onShutdown } from "./lifecycle.ts";
import { startRuntime, type ServiceRuntime } from "../service/wiring.ts";
import { operatorPaths } from "../service/operations/operator-paths.ts";
import { log } from "../lib/log/log.ts";

type Listener = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface ServeOptions {
  /** Answers every request that is not an API path (the dashboard); without it those get the API's JSON 404. */
  fallback?: (env: Env, port: number) => Promise<Listener>;
  /** Whether this process also runs a bulk worker. */
  worker: (env: Env) => boolean;
  name: string;
}

/**
 * Boots (env, migrations), starts the runtime and one HTTP server; SIGTERM/SIGINT drain it, let the
 * worker finish the URLs it is counting, and exit. Resolves once it listens (and the fallback is ready)
 * with the parsed env and the port.
 */
export async function serve(options: ServeOptions): Promise<{ env: Env; port: number }> {
  const env = await boot();
  const runtime: ServiceRuntime = await startRuntime(env, { worker: options.worker(env) });
  const api = apiListener(runtime.routes);
  // The API answers as soon as the port is open; other paths wait for the fallback (the dashboard) to load.
  let fallback: Listener | null = options.fallback ? null : api;
  const dashboardLoaded = async () => {
    if (!fallback) throw new Error("the dashboard is starting");
  };
  const readiness = options.fallback ? { ...runtime.readiness, dashboard: dashboardLoaded } : runtime.readiness;
  const operator = operatorPaths({ readiness, metricsToken: env.METRICS_TOKEN });
  const { server, port } = await listen(env, (req, res) => {
    if (operator(req, res)) return;
    if (isApiRequest(req.url ?? "/")) return api(req, res);
    if (fallback) return fallback(req, res);
    res.writeHead(503, { "Content-Type": "text/plain; charset=utf-8", "Retry-After": "2" }).end("Starting up…");
  });
  if (options.fallback) fallback = await options.fallback(env, port);
  log.info({
    event: "listening",
    service: options.name,
    url: `http://127.0.0.1:${port}`,
    networks: env.SHARECOUNT_NETWORKS,
    sandbox: runtime.sandbox?.origin ?? null,
    redis: env.REDIS_URL !== undefined,
    worker: runtime.worker !== null,
    mail: runtime.mail?.describe() ?? null,
  });
  onShutdown(env, async () => {
    await drain(server);
    await runtime.close();
  });
  return { env, port };
}
