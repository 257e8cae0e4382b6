import type http from "node:http";
import { getRequestListener } from "@hono/node-server";
import { apiErrors } from "./errors.ts";
import { parsedTarget, targetPath } from "./paths.ts";
import { alignResponseStatics } from "./response-compat.ts";
import { preflight, sendError, writeAnswer, type Answer } from "./respond.ts";
import { isPending } from "../../lib/maybe.ts";
import type { ApiRoutes } from "./route-table.ts";
import { routeOf } from "./route-label.ts";
import { requestIdOf } from "./x-request-id.ts";
import { loggedTarget } from "../requests/row-fields.ts";
import { withoutKeyShapedRuns } from "../../lib/log/redact.ts";

/** The methods the metrics name; Node's parser accepts some thirty more (PROPFIND, M-SEARCH…), counted as `other`. */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
import { observeHttpRequest } from "../../lib/metrics/metrics.ts";
import { log as logger } from "../../lib/log/log.ts";

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
  // With LOG_LEVEL=debug, a line per request: its target without keys (as the request log keeps it).
  const accessLines = logger.enabled("debug");
  // Every answer is counted; only what a key named an account for is logged (see requests/attribution.ts).
  const answered = (req: http.IncomingMessage, route: string, status: number, started: number) => {
    const ms = performance.now() - started;
    observeHttpRequest(route, METHODS.has(req.method!) ? req.method! : "other", status, ms / 1000);
    log?.record(req, status, ms);
    if (accessLines) {
      const { path, query } = loggedTarget(req.url!);
      logger.debug({
        event: "request",
        request_id: requestIdOf(req),
        method: req.method,
        route,
        path,
        // Keys sent under other names (`key=`, `apikey[]=`, inside a URL) are key-shaped all the same.
        query: withoutKeyShapedRuns(query),
        status,
        duration_ms: Math.round(ms * 10) / 10,
      });
    }
  };
  return (req, res) => {
    const started = performance.now();
    req.url = parsedTarget(req.url!);
    if (req.method === "OPTIONS") {
      writeAnswer(res, preflight(req.headers["access-control-request-headers"]));
      return observeHttpRequest("preflight", "OPTIONS", res.statusCode, (performance.now() - started) / 1000);
    }
    const path = targetPath(req.url);
    const count = routes.counts.get(path);
    if (count === undefined) {
      void hono(req, res).then(() => answered(req, routeOf(req), res.statusCode, started));
      return;
    }
    // HEAD is answered as GET: Node leaves the body out.
    if (req.method !== "GET" && req.method !== "HEAD") {
      writeAnswer(res, sendError(apiErrors.methodNotAllowed("GET")));
      return answered(req, path, 405, started);
    }
    // An endpoint answers its own failures; what is left is failing to write the answer, with nothing more to say.
    const notWritten = (error: unknown) => {
      logger.error({ event: "answer_not_written", request_id: requestIdOf(req), err: error });
      res.destroy();
    };
    const write = (answer: Answer<string>) => {
      try {
        writeAnswer(res, answer);
        answered(req, path, answer.status, started);
      } catch (error) {
        notWritten(error);
      }
    };
    // Here at once when nothing had to wait (a refusal before any store was asked); else it follows the quota's reservation.
    let answer: ReturnType<typeof count>;
    try {
      answer = count(req);
    } catch (error) {
      return notWritten(error);
    }
    if (isPending(answer)) answer.then(write, notWritten);
    else write(answer);
  };
}
