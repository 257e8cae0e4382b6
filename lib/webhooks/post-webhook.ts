import { isIP } from "node:net";
import { performance } from "node:perf_hooks";
import { request } from "undici";
import { createGuardedAgent, HostNotFound, RefusedAddress, type HostLookup } from "../net/guarded-agent.ts";
import { addressAllowed, hostRefusal, type AddressPolicy } from "../net/public-address.ts";
import { settleOrAbort } from "../net/settle-or-abort.ts";
import type { WebhookRequest } from "./payload.ts";

/** How one POST went, as the attempt log keeps it. */
export interface PostOutcome {
  /** Null when no answer came (refused address, connection error, timeout). */
  statusCode: number | null;
  /** A 2xx: anything else, redirects included, is a failure. */
  ok: boolean;
  durationMs: number;
  error: string | null;
}

export interface PosterOptions {
  allowPrivateHosts: boolean;
  /** The whole POST, from resolving the host to the answer's headers. */
  timeoutMs: number;
  /** Seams for tests: how host names resolve, and loopback addresses standing in for public ones. */
  lookup?: HostLookup;
  alsoPublic?: readonly string[];
}

export interface WebhookPoster {
  post(url: string, webhook: WebhookRequest): Promise<PostOutcome>;
  close(): Promise<void>;
}

const NOT_PUBLIC = "loopback, private, link-local and reserved addresses are not delivered to (WEBHOOK_ALLOW_PRIVATE_HOSTS)";
/** What is read of an answer's body before its connection is reused: nobody looks at it. */
const BODY_READ_LIMIT = 64 * 1024;

class TimedOut extends Error {}

/**
 * POSTs webhooks through the imports' address guard: the host is checked on the very addresses connected to,
 * at each delivery, so a name whose DNS answer turns to loopback is refused then. Redirects are not followed
 * (undici's request never does): a 3xx is a failed attempt.
 */
export function createWebhookPoster(options: PosterOptions): WebhookPoster {
  const policy: AddressPolicy = { allowPrivateHosts: options.allowPrivateHosts, alsoPublic: new Set(options.alsoPublic) };
  const agent = createGuardedAgent({ ...policy, lookup: options.lookup, connectTimeoutMs: options.timeoutMs });

  async function post(url: string, webhook: WebhookRequest): Promise<PostOutcome> {
    const started = performance.now();
    const outcome = (statusCode: number | null, error: string | null): PostOutcome => ({
      statusCode,
      ok: statusCode !== null && statusCode >= 200 && statusCode <= 299 && error === null,
      durationMs: Math.round(performance.now() - started),
      error,
    });
    const target = URL.canParse(url) ? new URL(url) : null;
    if (!target || (target.protocol !== "http:" && target.protocol !== "https:")) return outcome(null, `${url} is not an http or https URL`);
    const refusal = refusalOf(target.hostname, policy);
    if (refusal) return outcome(null, refusal);

    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new TimedOut()), options.timeoutMs);
    try {
      const pending = request(target, { dispatcher: agent, method: "POST", headers: webhook.headers, body: webhook.body, signal: controller.signal });
      const response = await settleOrAbort(pending, controller.signal);
      await response.body.dump({ limit: BODY_READ_LIMIT, signal: controller.signal }).catch(() => {});
      const status = response.statusCode;
      if (status >= 300 && status <= 399) {
        const location = response.headers.location;
        return outcome(status, `HTTP ${status}: redirects are not followed${location ? ` (Location: ${String(location).slice(0, 200)})` : ""}`);
      }
      // Said in words too, so the delivery log explains every failed attempt.
      return outcome(status, status >= 200 && status <= 299 ? null : `HTTP ${status}`);
    } catch (error) {
      if (controller.signal.aborted) return outcome(null, `no answer within ${options.timeoutMs / 1000} s`);
      return outcome(null, describe(error));
    } finally {
      clearTimeout(timer);
    }
  }

  return { post, close: () => agent.destroy() };
}

/** IP literals are judged before connecting (Node resolves no name for them); names by the public-host rule. */
function refusalOf(hostname: string, policy: AddressPolicy): string | null {
  const bare = hostname.replace(/^\[(.*)\]$/, "$1");
  if (isIP(bare) !== 0) return addressAllowed(bare, policy) ? null : `refused address ${bare}: ${NOT_PUBLIC}`;
  const refusal = hostRefusal(hostname, policy);
  return refusal ? `refused host ${hostname}: ${refusal}` : null;
}


/** A connection failure in words for the delivery log. */
function describe(error: unknown): string {
  for (let cause: unknown = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth += 1) {
    if (cause instanceof RefusedAddress) return `refused address ${cause.address} (${cause.hostname} resolves to it): ${NOT_PUBLIC}`;
    if (cause instanceof HostNotFound) return `host ${cause.hostname} not found (${cause.reason})`;
    const code = (cause as NodeJS.ErrnoException).code;
    if (code) return `connection failed (${code}${cause.message ? `: ${cause.message.slice(0, 200)}` : ""})`;
  }
  return `connection failed (${String(error).slice(0, 200)})`;
}
