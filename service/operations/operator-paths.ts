import type http from "node:http";
import { apiErrors } from "../http/errors.ts";
import { send, sendError, writeAnswer } from "../http/respond.ts";
import { metricsRegistry } from "../../lib/metrics/metrics.ts";
import { mayReadMetrics } from "./metrics-access.ts";
import { checkReadiness, type ReadinessCheck } from "./readiness.ts";
import { log } from "../../lib/log/log.ts";

export interface OperatorOptions {
  /** What /readyz checks (database, Redis, migrations). /healthz checks nothing. */
  readiness: Record<string, ReadinessCheck>;
  /** METRICS_TOKEN: unset, only loopback peers read /metrics. */
  metricsToken: string | undefined;
}

const NO_STORE = { "Cache-Control": "no-store" };

/**
 * The paths an orchestrator and Prometheus ask every process: `/healthz` (alive: answers without touching
 * anything), `/readyz` (may take traffic: 200 or 503 with each check's state) and `/metrics`. Returns a
 * listener that answers them and tells whether it did, so each process puts it before its own routes.
 */
export function operatorPaths(options: OperatorOptions): (req: http.IncomingMessage, res: http.ServerResponse) => boolean {
  return (req, res) => {
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    const path = query === -1 ? url : url.slice(0, query);
    if (path !== "/healthz" && path !== "/readyz" && path !== "/metrics") return false;
    if (req.method !== "GET" && req.method !== "HEAD") {
      writeAnswer(res, sendError(apiErrors.methodNotAllowed("GET, HEAD")));
      return true;
    }
    if (path === "/healthz") writeAnswer(res, send(200, { status: "up" }, { headers: NO_STORE }));
    else if (path === "/readyz") answerReadiness(res, options.readiness);
    else if (!mayReadMetrics(req, options.metricsToken)) writeAnswer(res, sendError(apiErrors.notFound()));
    else answerMetrics(res);
    return true;
  };
}

function answerReadiness(res: http.ServerResponse, checks: Record<string, ReadinessCheck>): void {
  void checkReadiness(checks).then((report) =>
    writeAnswer(res, send(report.ready ? 200 : 503, { status: report.ready ? "ready" : "not_ready", checks: report.checks }, { headers: NO_STORE })),
  );
}

function answerMetrics(res: http.ServerResponse): void {
  metricsRegistry.metrics().then(
    (text) => res.writeHead(200, { "Content-Type": metricsRegistry.contentType, ...NO_STORE }).end(text),
    (error: unknown) => {
      log.error({ event: "metrics_collect_failed", err: error });
      writeAnswer(res, sendError(apiErrors.internal()));
    },
  );
}
