import type http from "node:http";

const ROUTE = Symbol("sharecount.route");

type Labelled = http.IncomingMessage & { [ROUTE]?: string };

/** Records which route pattern (`/v2/keys/:id`) answers a request, for the metrics' `route` label. */
export function setRoute(req: http.IncomingMessage, pattern: string): void {
  (req as Labelled)[ROUTE] = pattern;
}

/** The pattern set by the route that answered; `unmatched` for a path no route serves. */
export function routeOf(req: http.IncomingMessage): string {
  return (req as Labelled)[ROUTE] ?? "unmatched";
}
