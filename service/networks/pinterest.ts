import { z } from "zod";
import { SANDBOX_HEADER } from "./types.ts";
import { Deadline, upstreamRequest } from "./upstream.ts";
import type { PinterestCount } from "../../lib/counts/values.ts";
import type { NetworkAdapter, NetworkFailure, NetworkOutcome } from "./types.ts";

export interface PinterestAdapterOptions {
  /** e.g. https://widgets.pinterest.com/v1/urls/count.json */
  countUrl: string;
  timeoutMs: number;
}

/** `callback( ... )` with any callback name and an optional trailing semicolon. */
const JSONP = /^\s*[A-Za-z_$][\w$.]*\s*\(([\s\S]*)\)\s*;?\s*$/;

const countSchema = z.union([
  z.number().int().min(0),
  z
    .string()
    .regex(/^\d+$/)
    .transform(Number)
    .pipe(z.number().int().max(Number.MAX_SAFE_INTEGER)),
]);
const answerSchema = z.object({ count: z.unknown().optional() });

/** The JSON inside the JSONP wrapper (or a plain JSON body); undefined when it does not parse. */
function unwrap(text: string): unknown {
  const inner = JSONP.exec(text)?.[1] ?? text;
  try {
    return JSON.parse(inner);
  } catch {
    return undefined;
  }
}

export function createPinterestAdapter(options: PinterestAdapterOptions): NetworkAdapter<"Pinterest"> {
  const { countUrl, timeoutMs } = options;
  const separator = countUrl.includes("?") ? "&" : "?";

  async function fetchCount(url: string, signal?: AbortSignal): Promise<NetworkOutcome<PinterestCount>> {
    let sandbox = false;
    const fail = (failure: NetworkFailure, detail: string): NetworkOutcome<PinterestCount> => ({
      ok: false,
      failure,
      detail,
      sandbox,
    });
    const deadline = new Deadline(timeoutMs, signal);
    try {
      const response = await upstreamRequest(`${countUrl}${separator}url=${encodeURIComponent(url)}`, { signal: deadline.signal });
      sandbox = response.header(SANDBOX_HEADER) !== null;
      const text = response.text;
      if (response.status === 429) return fail("throttled", "HTTP 429");
      if (response.status < 200 || response.status > 299) return fail("failed", `HTTP ${response.status}`);

      const answer = answerSchema.safeParse(unwrap(text));
      if (!answer.success) return fail("failed", "answer does not parse as a count object");
      const count = countSchema.safeParse(answer.data.count);
      if (!count.success) {
        const shown = JSON.stringify(answer.data.count)?.slice(0, 40) ?? "missing";
        return fail("unreported", `no count reported (count: ${shown})`);
      }
      return { ok: true, value: count.data, sandbox };
    } catch (error) {
      if (deadline.passed) return fail("timeout", `no answer within ${timeoutMs} ms`);
      if (signal?.aborted) return fail("timeout", "aborted by caller");
      return fail("failed", `transport error: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      deadline.end();
    }
  }

  return { name: "Pinterest", fetchCount };
}
