import { dashboardListener } from "../dashboard/server/next-server.ts";
import { disableDemo, startDemo } from "../lib/demo.ts";
import { sandboxObservedValues } from "../service/sandbox/observed-values.ts";
import { serve } from "./serve-api.ts";
import { log } from "../lib/log/log.ts";

/** `npm start`: one process, one port: the API on its paths, the dashboard (Next.js) on the rest, and the bulk worker. */
const { env, port } = await serve({
  name: "sharecount",
  worker: () => true,
  fallback: async (env, port) => {
    // The dashboard's server routes call this process's own API unless told otherwise.
    process.env.SHARECOUNT_API_URL ??= `http://127.0.0.1:${port}`;
    return dashboardListener(env, port);
  },
});

// The demo account (SHARECOUNT_DEMO, default true): seeded once, a new random password printed at every start.
// With the sandbox, the demo's tracked URLs get a made-up history that grows to the sandbox's counts.
const currentValues = env.SHARECOUNT_NETWORKS === "sandbox" ? sandboxObservedValues : null;
if (env.SHARECOUNT_DEMO === "true") await startDemo(env, env.SHARECOUNT_PUBLIC_URL ?? `http://${browsableHost(env.HOST)}:${port}`, { currentValues });
else await disableDemo(env).catch((error: unknown) => log.error({ event: "demo_disable_failed", err: error }));

/** Where a browser on this machine reaches a server listening on `host` (a wildcard address is not one). */
function browsableHost(host: string): string {
  if (host === "0.0.0.0" || host === "::") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}
