import type { IncomingMessage } from "node:http";
import type { Env } from "../../lib/env.ts";
import { clientAddressResolver } from "../../lib/security/client-ip.ts";
import type { RequestLogStore } from "../../lib/store/requests.ts";
import { attributeRequest } from "./attribution.ts";
import { RequestLogPruner } from "./pruner.ts";
import { RequestLog } from "./request-log.ts";

export interface RequestLogKit {
  /** The writer (null: REQUEST_LOG=off); its `dropped` counts requests not logged for a full queue. */
  log: RequestLog | null;
  /** What Authenticator records a request's account with (null with the log off: nothing to record). */
  attribute: ((req: IncomingMessage, accountId: string, keyId: string | null) => void) | null;
  start(): void;
  /** Writes what waits: call once the HTTP server has drained. */
  stop(): Promise<void>;
}

/**
 * The request log of one process: its writer, and its pruner wherever workers run (also with the log off:
 * rows of an earlier run still expire).
 */
export function openRequestLog(
  env: Pick<Env, "REQUEST_LOG" | "REQUEST_LOG_DAYS" | "TRUSTED_PROXIES">,
  store: RequestLogStore,
  options: { worker: boolean; now: () => number },
): RequestLogKit {
  // Behind a load balancer the client is in X-Forwarded-For; without one the socket's address is read directly.
  const clientAddress = env.TRUSTED_PROXIES.length > 0 ? clientAddressResolver(env.TRUSTED_PROXIES) : undefined;
  const log = env.REQUEST_LOG === "on" ? new RequestLog(store, { now: options.now, clientAddress }) : null;
  const pruner = options.worker ? new RequestLogPruner(store, { days: env.REQUEST_LOG_DAYS, now: options.now }) : null;
  return {
    log,
    attribute: log ? attributeRequest : null,
    start: () => pruner?.start(),
    async stop() {
      await log?.stop();
      await pruner?.stop();
    },
  };
}
