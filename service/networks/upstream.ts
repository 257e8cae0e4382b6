import { Agent, interceptors, request, type Dispatcher } from "undici";
import type { MoreNetworkName, MoreNetworkValues } from "../../lib/counts/more-networks.ts";
import { SANDBOX_HEADER, type NetworkFailure, type NetworkOutcome } from "./types.ts";

/**
 * The outcome of the networks beyond Facebook and Pinterest: NetworkOutcome, whose failures may also carry
 * the network's `Retry-After` (in ms), so a guard can pause exactly as long as the network asked.
 */
export type UpstreamOutcome<T> =
  | Extract<NetworkOutcome<T>, { ok: true }>
  | (Extract<NetworkOutcome<T>, { ok: false }> & { retryAfterMs?: number });

export type UpstreamFailure = Extract<UpstreamOutcome<unknown>, { ok: false }>;

export interface UpstreamAdapter<N extends MoreNetworkName> {
  readonly name: N;
  /** Never throws: every problem becomes a failed outcome. */
  fetchCount(url: string, signal?: AbortSignal): Promise<UpstreamOutcome<MoreNetworkValues[N]>>;
}

/** What this service calls itself to the networks (Reddit's adapter sends the form Reddit's rules ask for). */
export const USER_AGENT = "sharecount/1.0 (self-hosted share-count service)";

/** IMF-fixdate, the HTTP date every server sends (Date.parse alone would read "-5" as a year). */
const HTTP_DATE = /^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** `Retry-After` in ms: delay-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  if (!HTTP_DATE.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export interface UpstreamAnswer {
  status: number;
  /** A header's value (several joined with ", "), or null. */
  header(name: string): string | null;
  text: string;
}

export interface UpstreamRequest {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

/** Keep-alive connections of this module's own (the global dispatcher may be Node's bundled undici); redirects are followed, as fetch would. */
let dispatcher: Dispatcher | null = null;
const MAX_REDIRECTIONS = 3;

/**
 * One HTTP exchange with a network, through undici's request: a bulk job makes thousands, and fetch's
 * WHATWG Request, Response and streams cost several times the exchange itself.
 */
export async function upstreamRequest(url: string, init: UpstreamRequest): Promise<UpstreamAnswer> {
  dispatcher ??= new Agent().compose(interceptors.redirect({ maxRedirections: MAX_REDIRECTIONS }));
  const { statusCode, headers, body } = await request(url, { method: init.method ?? "GET", headers: init.headers, body: init.body, signal: init.signal, dispatcher });
  const text = await body.text();
  return {
    status: statusCode,
    text,
    header: (name) => {
      const value = headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
    },
  };
}

/**
 * One exchange's deadline: its signal aborts after `ms` (joined to the caller's signal, when there is one), and
 * `end()` clears its timer once the exchange is over. AbortSignal.timeout's timer fires for every finished call
 * too, and makes an error each time.
 */
export class Deadline {
  readonly signal: AbortSignal;
  private readonly own = new AbortController();
  private readonly timer: NodeJS.Timeout;

  constructor(ms: number, caller?: AbortSignal) {
    this.timer = setTimeout(() => this.own.abort(new DOMException(`no answer within ${ms} ms`, "TimeoutError")), ms);
    this.timer.unref();
    this.signal = caller ? AbortSignal.any([caller, this.own.signal]) : this.own.signal;
  }

  get passed(): boolean {
    return this.own.signal.aborted;
  }

  end(): void {
    clearTimeout(this.timer);
  }
}

/**
 * One exchange with a network, possibly several requests long: all of them share one deadline (the adapter's
 * timeout, joined to the caller's signal when there is one), and the outcome says whether the last answer
 * came from the sandbox.
 */
export class UpstreamCall<T> {
  sandbox = false;
  readonly deadline: Deadline;

  constructor(
    private readonly timeoutMs: number,
    private readonly caller?: AbortSignal,
  ) {
    this.deadline = new Deadline(timeoutMs, caller);
  }

  get signal(): AbortSignal {
    return this.deadline.signal;
  }

  /** Throws on transport errors and when the deadline passes; `caught` turns that into an outcome. */
  async fetch(url: string, init: Omit<UpstreamRequest, "signal"> = {}): Promise<UpstreamAnswer> {
    // Several networks (Tumblr, Reddit) refuse or throttle requests without a User-Agent of their own.
    const headers = { "user-agent": USER_AGENT, ...init.headers };
    const answer = await upstreamRequest(url, { ...init, headers, signal: this.signal });
    this.sandbox = answer.header(SANDBOX_HEADER) !== null;
    return answer;
  }

  ok(value: T): UpstreamOutcome<T> {
    return { ok: true, value, sandbox: this.sandbox };
  }

  fail(failure: NetworkFailure, detail: string, extra: { code?: number; retryAfterMs?: number } = {}): UpstreamFailure {
    const outcome: UpstreamFailure = { ok: false, failure, detail, sandbox: this.sandbox };
    if (extra.code !== undefined) outcome.code = extra.code;
    if (extra.retryAfterMs !== undefined) outcome.retryAfterMs = extra.retryAfterMs;
    return outcome;
  }

  /** The failure an HTTP status means (429: throttled, any other non-2xx: failed), or null for a 2xx. */
  status(answer: UpstreamAnswer, now: number = Date.now()): UpstreamFailure | null {
    if (answer.status >= 200 && answer.status < 300) return null;
    const retryAfterMs = parseRetryAfter(answer.header("retry-after"), now);
    const detail = `HTTP ${answer.status}${retryAfterMs === undefined ? "" : ` (Retry-After ${Math.ceil(retryAfterMs / 1000)} s)`}`;
    return this.fail(answer.status === 429 ? "throttled" : "failed", detail, { retryAfterMs });
  }

  /** What a thrown fetch means: the deadline passed, the caller gave up, or the transport failed. */
  caught(error: unknown): UpstreamFailure {
    if (this.deadline.passed) return this.fail("timeout", `no answer within ${this.timeoutMs} ms`);
    if (this.caller?.aborted) return this.fail("timeout", "aborted by caller");
    return this.fail("failed", `transport error: ${describe(error)}`);
  }
}

/** Runs one exchange; whatever it throws becomes a failed outcome, so adapters never throw. */
export async function withUpstream<T>(
  timeoutMs: number,
  signal: AbortSignal | undefined,
  run: (call: UpstreamCall<T>) => Promise<UpstreamOutcome<T>>,
): Promise<UpstreamOutcome<T>> {
  const call = new UpstreamCall<T>(timeoutMs, signal);
  try {
    return await run(call);
  } catch (error) {
    return call.caught(error);
  } finally {
    call.deadline.end();
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : "";
  return `${error.message}${cause}`;
}
