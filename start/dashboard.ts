import type http from "node:http";
import { dashboardListener } from "../dashboard/server/next-server.ts";
import { createPrisma, pingDatabase } from "../lib/db/prisma.ts";
import { closeRedis, connectRedis } from "../lib/redis/redis.ts";
import { operatorPaths } from "../service/operations/operator-paths.ts";
import { migrationsInPlace } from "../service/operations/readiness.ts";
import { boot, drain, listen, onShutdown } from "./lifecycle.ts";
import { log } from "../lib/log/log.ts";

/**
 * `npm run start:web`: the dashboard alone (start as many as needed). Its server routes call the API at
 * SHARECOUNT_API_URL with each account's key. It answers the operator paths too: /healthz, /readyz (its
 * database, Redis when set, the migrations) and /metrics.
 */
const env = await boot();
if (!env.SHARECOUNT_API_URL) {
  console.error("Invalid configuration:\n  SHARECOUNT_API_URL: is required by start:web (where the API answers, e.g. http://api:3000)");
  process.exit(1);
}
// The probes' own connections: Next.js's server code lives in its bundle, out of this file's reach.
const prisma = createPrisma(env.DATABASE_URL);
const redis = env.REDIS_URL ? connectRedis(env.REDIS_URL) : null;
let dashboard: http.RequestListener | null = null;
const operator = operatorPaths({
  readiness: {
    dashboard: async () => {
      if (!dashboard) throw new Error("Next.js is starting");
    },
    database: () => pingDatabase(prisma),
    ...(redis ? { redis: async () => void (await redis.ping()) } : {}),
    migrations: migrationsInPlace(env.DATABASE_URL),
  },
  metricsToken: env.METRICS_TOKEN,
});
// Next.js starts in a few seconds; until then the port answers 503, and /readyz too.
const { server, port } = await listen(env, (req, res) => {
  if (operator(req, res)) return;
  if (dashboard) return dashboard(req, res);
  res.writeHead(503, { "Content-Type": "text/plain; charset=utf-8", "Retry-After": "2" }).end("Starting up…");
});
dashboard = await dashboardListener(env, port);
log.info({ event: "listening", service: "web", url: `http://127.0.0.1:${port}`, api: env.SHARECOUNT_API_URL });
onShutdown(env, async () => {
  await drain(server);
  await prisma.$disconnect();
  if (redis) await closeRedis(redis);
});
