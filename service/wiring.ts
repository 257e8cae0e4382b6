import type { Env } from "../lib/env.ts";
import { closeRedis, connectRedis } from "../lib/redis/redis.ts";
import { createApiRoutes, type ApiRoutes } from "./http/route-table.ts";
import { openKeys } from "./keys/key-wiring.ts";
import { pollingBulk, queueBulk } from "./bulk/bulk-wiring.ts";
import { JobNetworks } from "./bulk/job-networks.ts";
import { memoryCountCache, redisCountCache } from "./counts/cache.ts";
import { CountService } from "./counts/count-service.ts";
import { createFacebookAdapter } from "./networks/facebook.ts";
import { NetworkGuard, type GuardOptions } from "./networks/guard.ts";
import { createPinterestAdapter } from "./networks/pinterest.ts";
import { moreNetworks } from "./networks/configured.ts";
import { networkHealthReport } from "./networks/health.ts";
import { memoryNetworkCache, redisNetworkCache } from "./counts/network-cache.ts";
import { QuotaClock } from "../lib/quota/clock.ts";
import { storeQuotaCounter } from "./quota/counter.ts";
import { RedisQuotaCounter } from "./quota/redis-counter.ts";
import { RefusalCounter } from "./quota/refusals.ts";
import { startSandbox, type Sandbox } from "./sandbox/sandbox.ts";
import type { PlanLimits } from "../lib/store/accounts.ts";
import { openStore } from "../lib/store/open.ts";
import type { Store } from "../lib/store/store.ts";
import { AccountCache } from "./accounts/account-cache.ts";
import { HistoryRecorder } from "./history/recorder.ts";
import { RefreshScheduler } from "./tracking/scheduler.ts";
import { ImportWorker } from "./imports/import-worker.ts";
import { cadenceOf } from "../lib/history/cadence.ts";
import { createPrisma } from "../lib/db/prisma.ts";
import { mailWorkerFor } from "../lib/mail/mail-service.ts";
import type { MailWorker } from "../lib/mail/mail-worker.ts";
import { loadServerSecret } from "../lib/security/secrets.ts";
import { mailSettings } from "../lib/mail/mail-env.ts";
import { openOutbox } from "../lib/mail/outbox.ts";
import type { DeliveryWorker } from "../lib/webhooks/delivery-worker.ts";
import { deliveryWorkerFor } from "../lib/webhooks/webhook-service.ts";
import { webhookLimits } from "../lib/webhooks/webhook-limits.ts";
import { alertingQuota } from "./alerts/quota-alerts.ts";
import { openAlerting, type Alerting } from "./alerts/alerting.ts";
import { openAudit } from "./audit/audit-service.ts";
import { openRequestLog } from "./requests/open-request-log.ts";
import { migrationsInPlace, type ReadinessCheck } from "./operations/readiness.ts";
import { gaugeReadings } from "./operations/gauge-readings.ts";
import { readGaugesFrom } from "../lib/metrics/metrics.ts";

const MAX_CUSTOM_TTL_SECONDS = 3600;

export interface ServiceRuntime {
  routes: ApiRoutes;
  worker: { start(): void; stop(): Promise<void> } | null;
  /** Refreshes tracked URLs when due, and runs sitemap and feed imports (wherever the bulk worker runs). */
  scheduler: RefreshScheduler | null;
  imports: ImportWorker | null;
  /** Sends the outbox's mail (wherever the bulk worker runs). */
  mail: MailWorker | null;
  /** Delivers webhooks (wherever the mail worker runs). */
  webhooks: DeliveryWorker | null;
  sandbox: Sandbox | null;
  /** What emits events (quota, bulk, tracked URL, network rules, the digest). */
  alerting: Alerting;
  store: Store;
  /** Throws unless every backing service (database, and Redis when used) answers: the status route's check. */
  ping(): Promise<void>;
  /** What /readyz checks: the database, Redis when used, and the migrations. */
  readiness: Record<string, ReadinessCheck>;
  /**
   * Writes the refused queries counted, stops the worker (letting counted URLs finish), then closes the store,
   * Redis and the sandbox. Call it once the HTTP server has drained.
   */
  close(): Promise<void>;
}

export interface RuntimeOptions {
  /** Run a bulk worker and the refresh scheduler in this process (default true). */
  worker?: boolean;
  /** The clock of quota days, the refresh schedule and the history (tests move it). */
  now?: () => number;
}

/**
 * Builds the API and, unless told otherwise, a bulk worker, from parsed configuration. Without Redis
 * everything lives in the database and this process's memory; with REDIS_URL the count cache, the quota
 * counters and the bulk queue are shared by every process.
 */
export async function startRuntime(env: Env, options: RuntimeOptions = {}): Promise<ServiceRuntime> {
  const sandbox =
    env.SHARECOUNT_NETWORKS === "sandbox"
      ? await startSandbox({ port: env.SANDBOX_PORT, latencyMs: env.SANDBOX_LATENCY_MS })
      : null;
  const store = openStore(env.DATABASE_URL);
  const redis = env.REDIS_URL ? connectRedis(env.REDIS_URL) : null;
  const now = options.now ?? Date.now;
  const clock = new QuotaClock(env.QUOTA_TIMEZONE, now);
  // With Redis, budgets and backoff are shared: the networks limit the app, not each process.
  // A probe call that never answers (its process died) frees its slot once it would have timed out.
  const guard = (network: string, budgets: Pick<GuardOptions, "perUrlPerHour" | "appPerHour" | "appPerMinute">, timeoutMs = env.NETWORK_TIMEOUT_MS) =>
    new NetworkGuard(redis ? { kind: "redis", redis, prefix: `${env.REDIS_PREFIX}:guard:${network}` } : { kind: "memory" }, {
      network,
      probeTimeoutMs: timeoutMs + 5_000,
      refreshShare: env.REFRESH_BUDGET_SHARE,
      ...budgets,
    });
  const guards = {
    Facebook: guard("facebook", { perUrlPerHour: env.FACEBOOK_CALLS_PER_URL_PER_HOUR, appPerHour: env.FACEBOOK_APP_CALLS_PER_HOUR }),
    // Pinterest publishes no limit; it still gets backoff when it answers 429.
    Pinterest: guard("pinterest", { appPerHour: env.PINTEREST_APP_CALLS_PER_HOUR }),
  };
  const more = moreNetworks(env, sandbox, guard);
  // Accounts' events, webhooks and mail go through Prisma: they are rare beside queries.
  const prisma = createPrisma(env.DATABASE_URL);
  const secret = loadServerSecret(env);
  const alerting = openAlerting(env, prisma, secret, store, { worker: options.worker !== false, now });
  const webhooks = options.worker === false ? null : deliveryWorkerFor(env, prisma, secret, alerting.kit, now);
  const audit = openAudit(env, prisma, secret, { worker: options.worker !== false, now });
  const redisQuota = redis ? new RedisQuotaCounter(redis, store.usage, store.bulk, env.REDIS_PREFIX) : null;
  const quota = alertingQuota(redisQuota ?? storeQuotaCounter(store.usage, store.bulk), alerting.quota);
  const recorder = new HistoryRecorder(store.history, alerting.tracked.observed);
  const counts = new CountService({
    knownCounts: store.counts,
    cache: redis
      ? redisCountCache(redis, env.REDIS_PREFIX, env.COUNT_CACHE_MAX_URLS)
      : memoryCountCache(env.COUNT_CACHE_MAX_URLS),
    networkCache: redis ? redisNetworkCache(redis, env.REDIS_PREFIX) : memoryNetworkCache(env.COUNT_CACHE_MAX_URLS),
    defaultTtlSeconds: env.COUNT_CACHE_TTL_SECONDS,
    staleMaxAgeSeconds: env.STALE_MAX_AGE_SECONDS,
    observations: recorder.observe,
    now,
    networks: {
      Facebook: {
        adapter: createFacebookAdapter({
          graphUrl: sandbox ? sandbox.facebookGraphUrl : env.FACEBOOK_GRAPH_URL,
          accessToken: sandbox ? "sandbox|sandbox" : (env.FACEBOOK_ACCESS_TOKEN ?? ""),
          timeoutMs: env.NETWORK_TIMEOUT_MS,
        }),
        guard: guards.Facebook,
      },
      Pinterest: {
        adapter: createPinterestAdapter({
          countUrl: sandbox ? sandbox.pinterestCountUrl : env.PINTEREST_COUNT_URL,
          timeoutMs: env.NETWORK_TIMEOUT_MS,
        }),
        guard: guards.Pinterest,
      },
      ...more,
    },
  });
  const allGuards = [guards.Facebook, guards.Pinterest, ...Object.values(more).map((network) => network.guard)];
  const countDeps = { store, counts, clock, quota, plans: new AccountCache<PlanLimits>(store.accounts, 10_000), jobNetworks: new JobNetworks(store.bulk), history: recorder, quotaAlerts: alerting.quota, urlCompleted: () => alerting.bulk?.poke() };
  const bulk = env.REDIS_URL ? queueBulk(env, options, countDeps) : pollingBulk(env, options, countDeps);
  const scheduler =
    options.worker === false
      ? null
      : new RefreshScheduler({
          tracked: store.tracked,
          history: store.history,
          recorder,
          counts,
          cadence: cadenceOf(env),
          now,
          capacity: async () => Math.max(...(await Promise.all(allGuards.map((g) => g.refreshesLeft())))),
          concurrency: env.REFRESH_CONCURRENCY,
          leaseMs: env.REFRESH_LEASE_MS,
          pollMs: env.REFRESH_POLL_MS,
          hourlyDays: env.HISTORY_HOURLY_DAYS,
        });
  const ping = async () => {
    await store.ping();
    await redis?.ping();
  };
  const trackedAdded = () => {
    alerting.tracked.trackedChanged();
    scheduler?.notify();
  };
  const imports =
    options.worker === false
      ? null
      : new ImportWorker(
          { store, history: recorder, clock, quota, trackedAdded, allowPrivateHosts: env.SITEMAP_ALLOW_PRIVATE_HOSTS, now },
          env.REFRESH_POLL_MS,
        );
  const refusals = new RefusalCounter(store.usage);
  const requestLog = openRequestLog(env, store.requests, { worker: options.worker !== false, now });
  const networkHealth = networkHealthReport({
    facebook: guards.Facebook,
    pinterest: guards.Pinterest,
    ...Object.fromEntries(Object.entries(more).map(([name, network]) => [name, network.guard])),
  });
  const keys = openKeys({ prisma, secret, accounts: store.accounts, outbox: openOutbox(prisma, secret), origin: mailSettings(env).linkOrigin, now, attribute: requestLog.attribute });
  const routes = createApiRoutes({
    store,
    auth: keys.auth,
    keys: keys.keys,
    counts,
    clock,
    quota,
    refusals,
    ping,
    bulkSubmitted: bulk.submitted,
    history: recorder,
    trackedAdded,
    importQueued: () => imports?.notify(),
    networkHealth,
    limits: { maxBodyBytes: env.BULK_MAX_BODY_BYTES, maxCustomTtlSeconds: MAX_CUSTOM_TTL_SECONDS },
    alerts: alerting.kit,
    allowPrivateWebhookHosts: env.WEBHOOK_ALLOW_PRIVATE_HOSTS,
    webhookLimits: webhookLimits(redis ? { redis, prefix: env.REDIS_PREFIX } : null),
    webhooksQueued: () => webhooks?.notify(),
    audit: audit.deps,
    sandbox: sandbox !== null,
    requestLog: requestLog.log,
  });
  const mail = options.worker === false ? null : mailWorkerFor(env, prisma, secret, now);
  // The gauges are read where the workers run (each such process reports the same values).
  const stopGauges = options.worker === false ? null : readGaugesFrom(gaugeReadings({ store, prisma, networkHealth, now }));
  bulk.worker?.start();
  alerting.start(networkHealth);
  scheduler?.start();
  imports?.start();
  mail?.start();
  webhooks?.start();
  audit.pruner?.start();
  requestLog.start();
  return {
    routes,
    worker: bulk.worker,
    scheduler,
    imports,
    mail,
    webhooks,
    sandbox,
    alerting,
    store,
    ping,
    readiness: {
      database: () => store.ping(),
      ...(redis ? { redis: async () => void (await redis.ping()) } : {}),
      migrations: migrationsInPlace(env.DATABASE_URL),
    },
    async close() {
      // The HTTP server has drained: no refusal is counted after this write.
      stopGauges?.();
      await refusals.stop();
      await requestLog.stop();
      await imports?.stop();
      await mail?.stop();
      await webhooks?.stop();
      await audit.pruner?.stop();
      await scheduler?.stop();
      await bulk.worker?.stop();
      // After the last query this process counted (its workers' too): the rows get Redis's totals.
      await redisQuota?.close();
      // After the workers: what they emitted on their way out is written.
      await alerting.stop();
      await keys.flush();
      await Promise.all(allGuards.map((guard) => guard.close()));
      await prisma.$disconnect();
      await bulk.close();
      if (redis) await closeRedis(redis);
      await store.close();
      await sandbox?.close();
    },
  };
}
