import { z } from "zod";
import type { RedditValues } from "../../lib/counts/more-networks.ts";
import { parseJson, withUpstream, type UpstreamAdapter, type UpstreamFailure } from "./upstream.ts";

export interface RedditAdapterOptions {
  /** e.g. https://www.reddit.com */
  baseUrl: string;
  timeoutMs: number;
  /** Reddit throttles generic user agents hard; its rules ask for `<platform>:<app id>:<version> (by /u/<user>)`. */
  userAgent?: string;
  /**
   * Application-only OAuth (client credentials): a token from `{baseUrl}/api/v1/access_token`, then
   * `GET {apiUrl}/api/info?url=U` with it, which Reddit allows ten times as often.
   */
  oauth?: { clientId: string; clientSecret: string; apiUrl: string };
  now?: () => number;
}

/** A token is renewed when it has less than this left. */
const RENEW_MARGIN_MS = 60_000;

const tokenSchema = z.object({ access_token: z.string().min(1), expires_in: z.number().positive() });

export const DEFAULT_REDDIT_USER_AGENT = "server:sharecount:0.1 (self-hosted share-count service)";

const listingSchema = z.object({
  kind: z.literal("Listing"),
  data: z.object({ children: z.array(z.object({ kind: z.string(), data: z.unknown() })) }),
});
const submissionSchema = z.object({ score: z.number().int(), num_comments: z.number().int().min(0) });

/**
 * `GET {base}/api/info.json?url=U` (or, with OAuth, `{apiUrl}/api/info` with a bearer token): every
 * submission (t3) of the URL, summed; none is a real 0. The OAuth token is fetched on first use (one fetch
 * for every call waiting), renewed a minute before it expires, and once when a call is refused with 401.
 */
export function createRedditAdapter(options: RedditAdapterOptions): UpstreamAdapter<"reddit"> {
  const { baseUrl, timeoutMs, userAgent = DEFAULT_REDDIT_USER_AGENT, oauth, now = Date.now } = options;
  let token: { value: string; expiresAt: number } | null = null;
  let fetching: Promise<string | UpstreamFailure> | null = null;

  const fetchToken = (credentials: NonNullable<typeof oauth>) =>
    withUpstream<string>(timeoutMs, undefined, async (call) => {
      const answer = await call.fetch(`${baseUrl}/api/v1/access_token`, {
        method: "POST",
        headers: {
          authorization: `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString("base64")}`,
          "content-type": "application/x-www-form-urlencoded",
          "user-agent": userAgent,
        },
        body: "grant_type=client_credentials",
      });
      if (answer.status === 401) return call.fail("rejected", "access_token: client id or secret refused (HTTP 401)");
      const failure = call.status(answer, now());
      if (failure) return { ...failure, detail: `access_token: ${failure.detail}` };
      const parsed = tokenSchema.safeParse(parseJson(answer.text));
      if (!parsed.success) return call.fail("failed", "access_token: answer has no access_token");
      token = { value: parsed.data.access_token, expiresAt: now() + parsed.data.expires_in * 1000 };
      return call.ok(token.value);
    });

  /** The current token, or one new token shared by every call waiting for it. */
  function tokenFor(credentials: NonNullable<typeof oauth>): Promise<string | UpstreamFailure> {
    if (token && token.expiresAt - now() > RENEW_MARGIN_MS) return Promise.resolve(token.value);
    fetching ??= fetchToken(credentials).then((outcome) => {
      fetching = null;
      return outcome.ok ? outcome.value : outcome;
    });
    return fetching;
  }

  const fetchCount = (url: string, signal?: AbortSignal) =>
    withUpstream<RedditValues>(timeoutMs, signal, async (call) => {
      // 100 is the most a listing holds (the default is 25).
      const query = `url=${encodeURIComponent(url)}&limit=100`;
      let answer;
      if (!oauth) answer = await call.fetch(`${baseUrl}/api/info.json?${query}`, { headers: { "user-agent": userAgent } });
      else {
        for (let attempt = 0; ; attempt++) {
          const current = await tokenFor(oauth);
          if (typeof current !== "string") return current;
          answer = await call.fetch(`${oauth.apiUrl}/api/info?${query}`, { headers: { authorization: `bearer ${current}`, "user-agent": userAgent } });
          if (answer.status !== 401 || attempt === 1) break;
          token = null;
        }
      }
      const failure = call.status(answer);
      if (failure) return failure;

      const listing = listingSchema.safeParse(parseJson(answer.text));
      if (!listing.success) return call.fail("failed", "answer is not a Listing");
      const values: RedditValues = { score: 0, comments: 0, posts: 0 };
      for (const child of listing.data.data.children) {
        if (child.kind !== "t3") continue;
        const submission = submissionSchema.safeParse(child.data);
        if (!submission.success) return call.fail("failed", "a submission lacks a numeric score or num_comments");
        values.score += submission.data.score;
        values.comments += submission.data.num_comments;
        values.posts++;
      }
      return call.ok(values);
    });

  return { name: "reddit", fetchCount };
}
