import { boot, drain, listen, onShutdown } from "./lifecycle.ts";
import { startRuntime } from "../service/wiring.ts";

/**
 * `npm run start:worker`: a bulk worker process (start as many as needed). With REDIS_URL it takes URLs
 * from the BullMQ queue; without, straight from the database. It answers one HTTP path on PORT,
 * GET /healthz: 200 while the database (and Redis) answer, 503 otherwise.
 */
const env = await boot();
const runtime = await startRuntime(env, { worker: true });
const { server, port } = await listen(env, (req, res) => {
  const path = (req.url ?? "/").split("?", 1)[0];
  if (path !== "/healthz") return res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not found");
  runtime.ping().then(
    () => res.writeHead(200, { "Content-Type": "application/json" }).end('{"status":"up"}'),
    () => res.writeHead(503, { "Content-Type": "application/json" }).end('{"status":"down"}'),
  );
});
console.log(
  JSON.stringify({
    event: "listening",
    service: "worker",
    url: `http://127.0.0.1:${port}/healthz`,
    queue: env.REDIS_URL ? "bullmq" : "database",
    concurrency: env.BULK_CONCURRENCY,
    mail: runtime.mail?.describe() ?? null,
    webhooks: runtime.webhooks !== null,
  }),
);
onShutdown(env, async () => {
  await drain(server);
  // Takes no new URLs, waits for the ones being counted to be stored.
  await runtime.close();
});
