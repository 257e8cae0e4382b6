import { z } from "zod";
import { SANDBOX_HEADER } from "./types.ts";
import { Deadline, parseJson, upstreamRequest } from "./upstream.ts";
import type { FacebookCounts, OgObject } from "../../lib/counts/values.ts";
import type { NetworkAdapter, NetworkFailure, NetworkOutcome } from "./types.ts";

export interface FacebookAdapterOptions {
  /** e.g. https://graph.facebook.com/v24.0 */
  graphUrl: string;
  accessToken: string;
  timeoutMs: number;
}

/** Graph error codes that mean "slow down": app, user, page-level and per-API rate limits. */
const THROTTLE_CODES = new Set([4, 17, 32, 613]);
/** Graph's "invalid OAuth access token": the token is invalid or has expired, whatever its subcode. */
const REJECTED_TOKEN_CODE = 190;

const part = z.number().int().min(0).default(0);
const answerSchema = z.object({
  engagement: z.object({ reaction_count: part, comment_count: part, share_count: part, comment_plugin_count: part }),
  og_object: z.unknown().optional(),
});
const optionalText = z.string().optional().catch(undefined);
const ogSchema = z.object({
  id: z.string(),
  title: optionalText,
  type: optionalText,
  description: optionalText,
  updated_time: optionalText,
});
const graphErrorSchema = z.object({
  error: z.object({ code: z.number().optional(), message: z.string().optional(), is_transient: z.boolean().optional() }),
});

function toOgObject(raw: unknown): OgObject | null {
  const parsed = ogSchema.safeParse(raw);
  if (!parsed.success) return null;
  const og: OgObject = { id: parsed.data.id };
  for (const key of ["title", "type", "description", "updated_time"] as const) {
    const value = parsed.data[key];
    if (value !== undefined) og[key] = value;
  }
  return og;
}

export function createFacebookAdapter(options: FacebookAdapterOptions): NetworkAdapter<"Facebook"> {
  const { graphUrl, accessToken, timeoutMs } = options;
  const secrets = [accessToken, encodeURIComponent(accessToken)].filter((s) => s.length > 0);
  /** Graph messages and transport errors may echo the request URL, which carries the token. */
  const redact = (text: string) => secrets.reduce((out, secret) => out.split(secret).join("[redacted]"), text);

  async function fetchCount(url: string, signal?: AbortSignal): Promise<NetworkOutcome<FacebookCounts>> {
    let sandbox = false;
    const fail = (failure: NetworkFailure, detail: string, code?: number): NetworkOutcome<FacebookCounts> => ({
      ok: false,
      failure,
      detail: redact(detail),
      sandbox,
      ...(code === undefined ? {} : { code }),
    });
    const deadline = new Deadline(timeoutMs, signal);
    const request =
      `${graphUrl}/?id=${encodeURIComponent(url)}&fields=engagement,og_object` +
      `&access_token=${encodeURIComponent(accessToken)}`;
    try {
      const response = await upstreamRequest(request, { signal: deadline.signal });
      sandbox = response.header(SANDBOX_HEADER) !== null;
      const body = parseJson(response.text);

      const graphError = graphErrorSchema.safeParse(body);
      if (graphError.success) {
        const { code, message = "no message" } = graphError.data.error;
        const detail = `Graph error ${code ?? "without code"} (HTTP ${response.status}): ${message}`;
        if (code !== undefined && THROTTLE_CODES.has(code)) return fail("throttled", detail, code);
        if (code === REJECTED_TOKEN_CODE) return fail("rejected", detail, code);
        if (response.status === 429) return fail("throttled", detail, code);
        return fail("failed", detail, code);
      }
      if (response.status === 429) return fail("throttled", "HTTP 429");
      // Facebook sometimes rate-limits with a 403 that carries no Graph error at all.
      if (response.status === 403) return fail("throttled", "HTTP 403 without a Graph error");
      if (response.status < 200 || response.status > 299) return fail("failed", `HTTP ${response.status}`);
      if (body === undefined) return fail("failed", "answer is not JSON");

      const parsed = answerSchema.safeParse(body);
      if (!parsed.success) return fail("failed", "answer does not have the expected engagement shape");
      const e = parsed.data.engagement;
      return {
        ok: true,
        sandbox,
        value: {
          total_count: e.reaction_count + e.comment_count + e.share_count + e.comment_plugin_count,
          comment_count: e.comment_count,
          reaction_count: e.reaction_count,
          share_count: e.share_count,
          comment_plugin_count: e.comment_plugin_count,
          og_object: toOgObject(parsed.data.og_object),
        },
      };
    } catch (error) {
      if (deadline.passed) return fail("timeout", `no answer within ${timeoutMs} ms`);
      if (signal?.aborted) return fail("timeout", "aborted by caller");
      return fail("failed", `transport error: ${describe(error)}`);
    } finally {
      deadline.end();
    }
  }

  return { name: "Facebook", fetchCount };
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : "";
  return `${error.message}${cause}`;
}
