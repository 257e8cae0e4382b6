import type { Hono } from "hono";
import type { Env } from "../lib/env.ts";
import { createApiApp } from "./app.ts";
import { Authenticator } from "./http/auth.ts";
import { BulkWorker } from "./bulk/worker.ts";
import { CountService } from "./counts/count-service.ts";
import { createFacebookAdapter } from "./networks/facebook.ts";
import { NetworkGuard } from "./networks/guard.ts";
import { createPinterestAdapter } from "./networks/pinterest.ts";
import { QuotaClock } from "./quota/clock.ts";
import { startSandbox, type Sandbox } from "./sandbox/sandbox.ts";
import { openStore } from "./store/index.ts";
import type { Store } from "./store/types.ts";

const MAX_CUSTOM_TTL_SECONDS = 3600;

export interface ServiceRuntime {
  app: Hono;
  worker: BulkWorker | null;
  sandbox: Sandbox | null;
  store: Store;
  /** Stops the worker (letting counted URLs finish), then closes the store and the sandbox. */
  close(): Promise<void>;
}

/** Builds the API and, unless told otherwise, the bulk worker, from parsed configuration. */
export async function startRuntime(env: Env, options: { worker?: boolean } = {}): Promise<ServiceRuntime> {
  const sandbox =
    env.SHARECOUNT_NETWORKS === "sandbox"
      ? await startSandbox({ port: env.SANDBOX_PORT, latencyMs: env.SANDBOX_LATENCY_MS })
      : null;
  const store = openStore(env.DATABASE_URL);
  const clock = new QuotaClock(env.QUOTA_TIMEZONE);
  const counts = new CountService({
    store,
    defaultTtlSeconds: env.COUNT_CACHE_TTL_SECONDS,
    maxUrls: env.COUNT_CACHE_MAX_URLS,
    staleMaxAgeSeconds: env.STALE_MAX_AGE_SECONDS,
    networks: {
      Facebook: {
        adapter: createFacebookAdapter({
          graphUrl: sandbox ? sandbox.facebookGraphUrl : env.FACEBOOK_GRAPH_URL,
          accessToken: sandbox ? "sandbox|sandbox" : (env.FACEBOOK_ACCESS_TOKEN ?? ""),
          timeoutMs: env.NETWORK_TIMEOUT_MS,
        }),
        guard: new NetworkGuard({
          perUrlPerHour: env.FACEBOOK_CALLS_PER_URL_PER_HOUR,
          appPerHour: env.FACEBOOK_APP_CALLS_PER_HOUR,
        }),
      },
      Pinterest: {
        adapter: createPinterestAdapter({
          countUrl: sandbox ? sandbox.pinterestCountUrl : env.PINTEREST_COUNT_URL,
          timeoutMs: env.NETWORK_TIMEOUT_MS,
        }),
        // Pinterest publishes no limit; it still gets backoff when it answers 429.
        guard: new NetworkGuard(),
      },
    },
  });
  const worker =
    options.worker === false
      ? null
      : new BulkWorker({
          store,
          counts,
          clock,
          concurrency: env.BULK_CONCURRENCY,
          retentionDays: env.BULK_RETENTION_DAYS,
        });
  const app = createApiApp({
    store,
    auth: new Authenticator(store),
    counts,
    clock,
    notifyBulk: () => worker?.notify(),
    limits: { maxBodyBytes: env.BULK_MAX_BODY_BYTES, maxCustomTtlSeconds: MAX_CUSTOM_TTL_SECONDS },
    sandbox: sandbox !== null,
  });
  worker?.start();
  return {
    app,
    worker,
    sandbox,
    store,
    async close() {
      await worker?.stop();
      await store.close();
      await sandbox?.close();
    },
  };
}
