import type http from "node:http";
import { getRequestListener } from "@hono/node-server";
import { apiErrors } from "./errors.ts";
import { parsedTarget, targetPath } from "./paths.ts";
import { alignResponseStatics } from "./response-compat.ts";
import { preflight, sendError, writeAnswer } from "./respond.ts";
import type { ApiRoutes } from "./route-table.ts";

/**
 * The API as a Node request listener, as every entry point (and the tests) serves it. A CORS preflight is
 * answered before any route (it depends on none). The single-URL count endpoints, nearly every request the API
 * gets, are answered straight from Node's request: building a web Request and Response for them cost more than
 * the rest of a cached answer. The other endpoints go through Hono.
 */
export function apiListener(routes: ApiRoutes): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  // The rest of a body answered early is read off by the HTTP server itself (front-door.ts), for the API and the dashboard alike.
  const hono = getRequestListener(routes.app.fetch, { autoCleanupIncoming: false });
  // Hono's listener replaced the global Response; keep Response.json() and friends instances of it (see there).
  alignResponseStatics();
  const log = routes.requestLog;
  return (req, res) => {
    req.url = parsedTarget(req.url!);
    if (req.method === "OPTIONS") return writeAnswer(res, preflight(req.headers["access-control-request-headers"]));
    // Only what a key named an account for is logged (see requests/attribution.ts), once its answer is written.
    const started = log === null ? 0 : performance.now();
    const count = routes.counts.get(targetPath(req.url));
    if (count === undefined) {
      const answered = hono(req, res);
      if (log !== null) void answered.then(() => log.record(req, res.statusCode, performance.now() - started));
      return;
    }
    // HEAD is answered as GET: Node leaves the body out.
    if (req.method !== "GET" && req.method !== "HEAD") return writeAnswer(res, sendError(apiErrors.methodNotAllowed("GET")));
    // An endpoint answers its own failures; what is left is failing to write the answer, with nothing more to say.
    count(req)
      .then((answer) => {
        writeAnswer(res, answer);
        log?.record(req, answer.status, performance.now() - started);
      })
      .catch((error: unknown) => {
        console.error("could not write an answer", error);
        res.destroy();
      });
  };
}
