import type http from "node:http";
import { getRequestListener } from "@hono/node-server";
import { EnvError, loadDotEnv, parseEnv, type Env } from "../lib/env.ts";
import { migrate } from "../lib/db/migrate.ts";
import { isApiPath } from "./http/paths.ts";
import { alignResponseStatics } from "./http/response-compat.ts";
import { createHttpServer } from "./http/server.ts";
import { startRuntime, type ServiceRuntime } from "./runtime.ts";

type Listener = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface ServeOptions {
  /** Answers every request that is not an API path (the dashboard); without it those get the API's JSON 404. */
  fallback?: (env: Env, port: number) => Promise<Listener>;
  worker?: boolean;
  name: string;
}

/**
 * Parses env, migrates, starts the runtime and one HTTP server; SIGTERM/SIGINT drain it and exit.
 * Resolves once it listens (and the fallback is ready) with the parsed env and the port.
 */
export async function serve(options: ServeOptions): Promise<{ env: Env; port: number }> {
  let env: Env;
  try {
    loadDotEnv();
    env = parseEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  await migrate(env.DATABASE_URL, (line) => console.log(line));
  const runtime: ServiceRuntime = await startRuntime(env, { worker: options.worker });
  const api = getRequestListener(runtime.app.fetch);
  // Hono's listener replaced the global Response; keep Response.json() and friends instances of it (see there).
  alignResponseStatics();
  // The API answers as soon as the port is open; other paths wait for the fallback (the dashboard) to load.
  let fallback: Listener | null = options.fallback ? null : api;
  const server = createHttpServer((req, res) => {
    const path = (req.url ?? "/").split("?", 1)[0] ?? "/";
    if (isApiPath(path)) return api(req, res);
    if (fallback) return fallback(req, res);
    res.writeHead(503, { "Content-Type": "text/plain; charset=utf-8", "Retry-After": "2" }).end("Starting up…");
  });
  await new Promise<void>((resolve) => server.listen(env.PORT, env.HOST, resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : env.PORT;
  if (options.fallback) fallback = await options.fallback(env, port);
  console.log(
    JSON.stringify({
      event: "listening",
      service: options.name,
      url: `http://127.0.0.1:${port}`,
      networks: env.SHARECOUNT_NETWORKS,
      sandbox: runtime.sandbox?.origin ?? null,
      worker: runtime.worker !== null,
    }),
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(JSON.stringify({ event: "stopping", signal }));
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
    await runtime.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  return { env, port };
}
