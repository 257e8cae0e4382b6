import next from "next";
import { disableDemo, startDemo } from "./lib/demo.ts";
import { serve } from "./service/serve.ts";

const CLIENT_IP_HEADER = "x-sharecount-client-ip";

/** `npm start`: one process, one port: the API on its paths, the dashboard (Next.js) on the rest, and the bulk worker. */
const { env, port } = await serve({
  name: "sharecount",
  fallback: async (env, port) => {
    // The dashboard's server routes call this process's own API unless told otherwise.
    process.env.SHARECOUNT_API_URL ??= `http://127.0.0.1:${port}`;
    const dashboard = next({ dev: false, dir: import.meta.dirname, hostname: env.HOST, port });
    await dashboard.prepare();
    const handle = dashboard.getRequestHandler();
    return (req, res) => {
      // Sign-in rate limits key on the client's address: from the socket, never from what the client sends.
      req.headers[CLIENT_IP_HEADER] = req.socket.remoteAddress ?? "unknown";
      void handle(req, res);
    };
  },
});

// The demo account (SHARECOUNT_DEMO, default true): seeded once, a new random password printed at every start.
if (env.SHARECOUNT_DEMO === "true") await startDemo(env, `http://${browsableHost(env.HOST)}:${port}`);
else await disableDemo(env).catch((error: unknown) => console.error("could not disable the demo account", error));

/** Where a browser on this machine reaches a server listening on `host` (a wildcard address is not one). */
function browsableHost(host: string): string {
  if (host === "0.0.0.0" || host === "::") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}
