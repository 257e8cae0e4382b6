import type { Context } from "hono";
import { z } from "zod";
import { deriveMoreCounts, type MoreDerivedCounts } from "./derive-counts.ts";

/** The longest latency a knob may set: a "hang" waits out 1,000 times this, in effect forever. */
export const MAX_LATENCY_MS = 10 * 60 * 1000;
export const latencySchema = z.number().int().min(0).max(MAX_LATENCY_MS);
export const countSchema = z.number().int().min(0);

export interface NetworkKnobs<M extends string> {
  mode: M;
  latencyMs: number;
  /** The newer networks' twins: the `Retry-After` of `throttle` mode, in seconds (default 30). */
  retryAfterSeconds?: number;
}

/** What the sandbox keeps for one network's twin: its knobs, the calls it answered, and counts set by hand. */
export class TwinState<M extends string, Override> {
  knobs: NetworkKnobs<M>;
  calls = 0;
  readonly callsByUrl = new Map<string, number>();
  readonly overrides = new Map<string, Override>();

  constructor(private readonly initial: NetworkKnobs<M>) {
    this.knobs = { ...initial };
  }

  record(url: string): void {
    this.calls++;
    this.callsByUrl.set(url, (this.callsByUrl.get(url) ?? 0) + 1);
  }

  reset(): void {
    this.knobs = { ...this.initial };
    this.calls = 0;
    this.callsByUrl.clear();
    this.overrides.clear();
  }
}

/** Resolves after ms (true), or early when the client goes away (false). */
function wait(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** An answer to a client that went away while it waited: nobody reads it. */
export const gone = () => new Response(null, { status: 499 });

/** Latency and "hang" for every twin; requests held open by "hang" are released when the sandbox closes. */
export class Delays {
  private readonly hanging = new Set<AbortController>();

  /** Waits out the latency knob, or forever in "hang" mode; false when the client gave up first. */
  async wait(c: Context, knobs: NetworkKnobs<string>): Promise<boolean> {
    const hang = knobs.mode === "hang";
    if (!hang && knobs.latencyMs === 0) return true;
    const signal = c.req.raw.signal;
    if (knobs.latencyMs > 0 && !(await wait(knobs.latencyMs, signal))) return false;
    if (!hang) return true;
    const release = new AbortController();
    this.hanging.add(release);
    await wait(MAX_LATENCY_MS * 1000, AbortSignal.any([signal, release.signal]));
    this.hanging.delete(release);
    return false;
  }

  releaseAll(): void {
    for (const release of this.hanging) release.abort();
    this.hanging.clear();
  }
}

/** How a twin spells its own answers; answerMode does the rest, the same for every twin of the newer networks. */
export interface TwinAnswers {
  /** The 500 answer of `fail` mode. */
  fail(): Response;
  /** The 429 answer: with `Retry-After: 30` in `throttle` mode, without it in `429` mode. */
  tooMany(headers?: Record<string, string>): Response;
  /** Bodies served in `garbage` mode; which one depends on the URL. */
  garbageBodies: readonly string[];
  /** Serves one garbage body (default: JSON, or HTML when it starts with `<`). */
  garbage?(body: string): Response;
  /** The answer in every other mode; `none` is true in `none` mode (the twin answers as if the URL had nothing). */
  ok(derived: MoreDerivedCounts, none: boolean): Response | Promise<Response>;
}

/** A garbage body as JSON, or as HTML (of type htmlType) when it starts with `<`. */
export const jsonOrHtml = (c: Context, body: string, htmlType = "text/html") =>
  c.body(body, 200, { "content-type": body.startsWith("<") ? htmlType : "application/json" });

/** The plain 500 and 429 answers of the share-button endpoints (VK, OK.ru). */
export const plainErrors = (c: Context): Pick<TwinAnswers, "fail" | "tooMany"> => ({
  fail: () => c.html("<html><body>Internal Server Error</body></html>", 500),
  tooMany: (headers) => c.text("Too Many Requests", 429, headers),
});

/**
 * One request to a twin: records the call for `url`, waits out the latency (or hang) knob, then answers by
 * mode: `fail`, `throttle` (429 with `Retry-After`, 30 s unless the knob says), `429` (without it), `garbage`;
 * else answers.ok.
 */
export async function answerMode<M extends string>(c: Context, twin: TwinState<M, unknown>, delays: Delays, url: string, answers: TwinAnswers): Promise<Response> {
  twin.record(url);
  const { mode } = twin.knobs;
  if (!(await delays.wait(c, twin.knobs))) return gone();
  const derived = deriveMoreCounts(url);
  switch (mode as string) {
    case "fail":
      return answers.fail();
    case "throttle":
      return answers.tooMany({ "retry-after": String(twin.knobs.retryAfterSeconds ?? 30) });
    case "429":
      return answers.tooMany();
    case "garbage": {
      const body = answers.garbageBodies[derived.variant % answers.garbageBodies.length]!;
      return answers.garbage ? answers.garbage(body) : jsonOrHtml(c, body);
    }
  }
  return answers.ok(derived, mode === "none");
}
