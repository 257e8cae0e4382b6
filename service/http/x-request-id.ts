import type http from "node:http";
import { randomBytes } from "node:crypto";

/** An id a client or a proxy in front of us chose is kept when it is plain enough to log and echo as is… */
const INCOMING = /^[A-Za-z0-9._-]{1,64}$/;
/** …and holds nothing shaped like an API key (40 hex digits), which would then be logged. */
const KEY_SHAPED = /[0-9a-fA-F]{40}/;

/** This process's tag: ids are the tag and a counter, unique across processes without a random draw each. */
const processTag = randomBytes(5).toString("hex");
let sequence = 0;

/**
 * Gives the request its id: its `X-Request-Id` when valid, else a new one. It is echoed in the answer's
 * `X-Request-Id` and left in the request's own header, where the routes, the dashboard (which sends it on to
 * the API) and log lines read it.
 */
export function assignRequestId(req: http.IncomingMessage, res: http.ServerResponse): string {
  const sent = req.headers["x-request-id"];
  const id = typeof sent === "string" && INCOMING.test(sent) && !KEY_SHAPED.test(sent) ? sent : `${processTag}-${(sequence++).toString(36)}`;
  req.headers["x-request-id"] = id;
  res.setHeader("X-Request-Id", id);
  return id;
}

/** The id assign gave the request. */
export function requestIdOf(req: http.IncomingMessage): string | undefined {
  return req.headers["x-request-id"] as string | undefined;
}
