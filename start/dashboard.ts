import type http from "node:http";
import { dashboardListener } from "../dashboard/server/next-server.ts";
import { boot, drain, listen, onShutdown } from "./lifecycle.ts";

/**
 * `npm run start:web`: the dashboard alone (start as many as needed). Its server routes call the API at
 * SHARECOUNT_API_URL with each account's key; GET /healthz answers 200 while its database does.
 */
const env = await boot();
if (!env.SHARECOUNT_API_URL) {
  console.error("Invalid configuration:\n  SHARECOUNT_API_URL: is required by start:web (where the API answers, e.g. http://api:3000)");
  process.exit(1);
}
// Next.js starts in a few seconds; until then the port answers 503 so a load balancer waits for it.
let dashboard: http.RequestListener | null = null;
const { server, port } = await listen(env, (req, res) => {
  if (dashboard) return dashboard(req, res);
  res.writeHead(503, { "Content-Type": "text/plain; charset=utf-8", "Retry-After": "2" }).end("Starting up…");
});
dashboard = await dashboardListener(env, port);
console.log(JSON.stringify({ event: "listening", service: "web", url: `http://127.0.0.1:${port}`, api: env.SHARECOUNT_API_URL }));
onShutdown(env, () => drain(server));
