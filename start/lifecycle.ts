import type http from "node:http";
import { migrate } from "../lib/db/migrate.ts";
import { EnvError, loadDotEnv, parseEnv, type Env } from "../lib/env.ts";
import { configureLogging, log } from "../lib/log/log.ts";
import { createHttpServer } from "../service/http/front-door.ts";

/**
 * What every entry point (npm start, start:api, start:worker, start:web) does first: read `.env`, parse
 * and check the environment (exit 1 naming every bad variable), and apply pending migrations.
 */
export async function boot(): Promise<Env> {
  let env: Env;
  try {
    loadDotEnv();
    env = parseEnv();
  } catch (error) {
    // Before the logger knows its settings: the variables at fault, as text for the person starting it.
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  configureLogging({ level: env.LOG_LEVEL, format: env.LOG_FORMAT });
  await migrate(env.DATABASE_URL, (line) => log.info({ event: "migrations" }, line));
  return env;
}

/** Listens on HOST:PORT; resolves with the server and the port it got (PORT=0 picks one). */
export async function listen(env: Env, listener: http.RequestListener): Promise<{ server: http.Server; port: number }> {
  const server = createHttpServer(listener);
  await new Promise<void>((resolve) => server.listen(env.PORT, env.HOST, resolve));
  const address = server.address();
  return { server, port: typeof address === "object" && address ? address.port : env.PORT };
}

/** Stops accepting connections and waits (up to 10 s) for the requests in flight to be answered. */
export async function drain(server: http.Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // A keep-alive connection goes idle once its answer is sent: close it then rather than at its timeout.
  server.closeIdleConnections();
  const sweeper = setInterval(() => server.closeIdleConnections(), 50);
  await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
  clearInterval(sweeper);
}

/**
 * On SIGTERM or SIGINT: runs `stop` once (finish in-flight work, close connections), then exits 0; exits 1
 * if stopping fails or takes longer than STOP_DEADLINE_SECONDS, as when its database or Redis is gone (what
 * was not finished is recovered elsewhere: unanswered requests were not counted, and a worker's URLs go back
 * to the queue).
 */
export function onShutdown(env: Env, stop: () => Promise<void>): void {
  const deadlineMs = env.STOP_DEADLINE_SECONDS * 1000;
  let stopping = false;
  const handle = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ event: "stopping", signal });
    const deadline = setTimeout(() => {
      log.error({ event: "stop_deadline" }, `could not stop within ${env.STOP_DEADLINE_SECONDS} s; exiting anyway`);
      void log.flush().finally(() => process.exit(1));
    }, deadlineMs);
    deadline.unref();
    try {
      await stop();
    } catch (error) {
      log.error({ event: "stop_failed", err: error });
      await log.flush();
      process.exit(1);
    }
    log.info({ event: "stopped" });
    await log.flush();
    process.exit(0);
  };
  process.on("SIGTERM", () => void handle("SIGTERM"));
  process.on("SIGINT", () => void handle("SIGINT"));
}
