import { z } from "zod";
import type { BlueskyValues } from "../../lib/counts/more-networks.ts";
import { parseJson, withUpstream, type UpstreamAdapter, type UpstreamAnswer, type UpstreamFailure } from "./upstream.ts";

export interface BlueskyAdapterOptions {
  /** e.g. https://bsky.social/xrpc */
  baseUrl: string;
  timeoutMs: number;
  identifier: string;
  /** An app password. */
  password: string;
  /** How many pages of 100 posts to follow through `cursor` (default 5): the counts cover at most that many posts. */
  maxPages?: number;
  /** The clock the session's expiry is read against. */
  now?: () => number;
}

/** A session is renewed when less than this is left of it, so no search is made with a token about to expire. */
const RENEW_MARGIN_MS = 60_000;
/**
 * After the credentials were refused, how long the adapter answers "rejected" without asking again:
 * Bluesky allows 30 createSession calls in 5 minutes, and an account that keeps sending a bad password
 * risks being locked.
 */
export const REJECTED_RETRY_MS = 5 * 60_000;
const PAGE_SIZE = 100;

interface Session {
  accessJwt: string;
  /** From the token's `exp` (ms); null when it has none: then the session is used until refused. */
  expiresAt: number | null;
}

const sessionSchema = z.object({ accessJwt: z.string().min(1) });
const jwtPayloadSchema = z.object({ exp: z.number() });
const xrpcErrorSchema = z.object({ error: z.string(), message: z.string().optional() });
const part = z.number().int().min(0).default(0);
const pageSchema = z.object({
  posts: z.array(z.object({ likeCount: part, repostCount: part, replyCount: part, quoteCount: part })),
  cursor: z.string().optional(),
});

/** The token's `exp`, read without verifying it: only to know when to renew. */
function jwtExpiry(jwt: string): number | null {
  const payload = jwt.split(".")[1];
  if (payload === undefined) return null;
  const parsed = jwtPayloadSchema.safeParse(parseJson(Buffer.from(payload, "base64url").toString("utf8")));
  return parsed.success ? parsed.data.exp * 1000 : null;
}

function xrpcError(answer: UpstreamAnswer): string {
  const error = xrpcErrorSchema.safeParse(parseJson(answer.text));
  if (!error.success) return `HTTP ${answer.status}`;
  return `HTTP ${answer.status} ${error.data.error}${error.data.message ? `: ${error.data.message}` : ""}`;
}

/** The search refused the session: any 401, or the 400 that older PDS versions answer for an expired or bad token. */
function refusesSession(answer: UpstreamAnswer): boolean {
  if (answer.status === 401) return true;
  if (answer.status !== 400) return false;
  const error = xrpcErrorSchema.safeParse(parseJson(answer.text)).data?.error;
  return error === "ExpiredToken" || error === "InvalidToken";
}

/** Resolves as `promise` does, or rejects when `signal` aborts first (the promise itself goes on). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * `POST {base}/com.atproto.server.createSession`, then `GET {base}/app.bsky.feed.searchPosts?q=U&url=U&limit=100`
 * with the session's token, following `cursor` up to `maxPages` pages; the posts' counts are summed.
 * The adapter keeps one session: it is created on first use, renewed (by a new createSession) when it has
 * less than a minute left, and renewed once per call when the search refuses it. Concurrent calls share one
 * createSession, which runs on its own timeout so that a caller giving up does not fail the others.
 */
export function createBlueskyAdapter(options: BlueskyAdapterOptions): UpstreamAdapter<"bluesky"> {
  const { baseUrl, timeoutMs, identifier, password, maxPages = 5, now = Date.now } = options;
  let session: Session | null = null;
  let creating: Promise<Session | UpstreamFailure> | null = null;

  const createSession = () =>
    withUpstream<Session>(timeoutMs, undefined, async (call) => {
      const answer = await call.fetch(`${baseUrl}/com.atproto.server.createSession`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ identifier, password }),
      });
      if (answer.status === 401) return call.fail("rejected", `createSession: ${xrpcError(answer)}`);
      const failure = call.status(answer, now());
      if (failure) return { ...failure, detail: `createSession: ${xrpcError(answer)}` };
      const parsed = sessionSchema.safeParse(parseJson(answer.text));
      if (!parsed.success) return call.fail("failed", "createSession: answer has no accessJwt");
      return call.ok({ accessJwt: parsed.data.accessJwt, expiresAt: jwtExpiry(parsed.data.accessJwt) });
    });

  let refused: { outcome: UpstreamFailure; until: number } | null = null;

  function sessionFor(signal: AbortSignal): Promise<Session | UpstreamFailure> {
    if (session && (session.expiresAt === null || session.expiresAt - now() > RENEW_MARGIN_MS)) return Promise.resolve(session);
    if (refused && now() < refused.until) return Promise.resolve(refused.outcome);
    creating ??= createSession().then((outcome) => {
      creating = null;
      refused = !outcome.ok && outcome.failure === "rejected" ? { outcome, until: now() + REJECTED_RETRY_MS } : null;
      if (!outcome.ok) return outcome;
      session = outcome.value;
      return outcome.value;
    });
    return untilAborted(creating, signal);
  }

  const searchUrl = (url: string, cursor: string | undefined) =>
    `${baseUrl}/app.bsky.feed.searchPosts?q=${encodeURIComponent(url)}&url=${encodeURIComponent(url)}&limit=${PAGE_SIZE}` +
    (cursor === undefined ? "" : `&cursor=${encodeURIComponent(cursor)}`);

  const fetchCount = (url: string, signal?: AbortSignal) =>
    withUpstream<BlueskyValues>(timeoutMs, signal, async (call) => {
      let current = await sessionFor(call.signal);
      if ("failure" in current) return current;
      const values: BlueskyValues = { likes: 0, reposts: 0, replies: 0, quotes: 0, posts: 0 };
      let renewed = false;
      let cursor: string | undefined;
      let pages = 0;
      while (pages < maxPages) {
        const answer = await call.fetch(searchUrl(url, cursor), { headers: { authorization: `Bearer ${current.accessJwt}` } });
        if (refusesSession(answer)) {
          if (renewed) return call.fail("failed", `searchPosts refused a new session: ${xrpcError(answer)}`);
          renewed = true;
          if (session === current) session = null;
          current = await sessionFor(call.signal);
          if ("failure" in current) return current;
          continue;
        }
        const failure = call.status(answer, now());
        if (failure) return failure;
        const page = pageSchema.safeParse(parseJson(answer.text));
        if (!page.success) return call.fail("failed", "answer is not a page of posts with counts");
        for (const post of page.data.posts) {
          values.likes += post.likeCount;
          values.reposts += post.repostCount;
          values.replies += post.replyCount;
          values.quotes += post.quoteCount;
          values.posts++;
        }
        pages++;
        cursor = page.data.cursor;
        if (!cursor || page.data.posts.length === 0) break;
      }
      return call.ok(values);
    });

  return { name: "bluesky", fetchCount };
}
