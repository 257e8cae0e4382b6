import next from "next";
import { serve } from "./service/serve.ts";

/** `npm start`: one process, one port: the API on its paths, the dashboard (Next.js) on the rest, and the bulk worker. */
await serve({
  name: "sharecount",
  fallback: async (env) => {
    const dashboard = next({ dev: false, dir: import.meta.dirname, hostname: env.HOST, port: env.PORT });
    await dashboard.prepare();
    const handle = dashboard.getRequestHandler();
    return (req, res) => void handle(req, res);
  },
});
