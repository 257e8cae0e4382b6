import next from "next";
import { serve } from "./service/serve.ts";

const CLIENT_IP_HEADER = "x-sharecount-client-ip";

/** `npm start`: one process, one port: the API on its paths, the dashboard (Next.js) on the rest, and the bulk worker. */
await serve({
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
