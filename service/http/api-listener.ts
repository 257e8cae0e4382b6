import type http from "node:http";
import { getRequestListener } from "@hono/node-server";
import type { Hono } from "hono";
import { alignResponseStatics } from "./response-compat.ts";

/** The API app as a Node request listener, as every entry point (and the tests) serves it. */
export function apiListener(app: Hono): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  // The rest of a body answered early is read off by the HTTP server itself (front-door.ts), for the API and the dashboard alike.
  const listener = getRequestListener(app.fetch, { autoCleanupIncoming: false });
  // Hono's listener replaced the global Response; keep Response.json() and friends instances of it (see there).
  alignResponseStatics();
  return listener;
}
