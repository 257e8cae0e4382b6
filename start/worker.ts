import { boot, drain, listen, onShutdown } from "./lifecycle.ts";
import { startRuntime } from "../service/wiring.ts";
import { apiErrors } from "../service/http/errors.ts";
import { sendError, writeAnswer } from "../service/http/respond.ts";
import { operatorPaths } from "../service/operations/operator-paths.ts";
import { log } from "../lib/log/log.ts";

/**
 * `npm run start:worker`: a bulk worker process (start as many as needed). With REDIS_URL it takes URLs
 * from the BullMQ queue; without, straight from the database. On PORT it answers only the operator paths:
 * /healthz, /readyz (the database, Redis and the migrations) and /metrics.
 */
const env = await boot();
const runtime = await startRuntime(env, { worker: true });
const operator = operatorPaths({ readiness: runtime.readiness, metricsToken: env.METRICS_TOKEN });
const { server, port } = await listen(env, (req, res) => {
  if (!operator(req, res)) writeAnswer(res, sendError(apiErrors.notFound()));
});
log.info({
  event: "listening",
  service: "worker",
  url: `http://127.0.0.1:${port}/healthz`,
  queue: env.REDIS_URL ? "bullmq" : "database",
  concurrency: env.BULK_CONCURRENCY,
  mail: runtime.mail?.describe() ?? null,
  webhooks: runtime.webhooks !== null,
});
onShutdown(env, async () => {
  await drain(server);
  // Takes no new URLs, waits for the ones being counted to be stored.
  await runtime.close();
});
