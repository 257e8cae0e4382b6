import { createHash, createHmac, randomBytes } from "node:crypto";
import type { Context, Hono } from "hono";
import { z } from "zod";
import type { BlueskyPostCounts } from "./derive-counts.ts";
import { answerMode, gone, TwinState, type Delays } from "./twin.ts";

/**
 * Bluesky's twin (XRPC under /bluesky/xrpc/):
 * - `POST com.atproto.server.createSession` accepts any identifier and password and issues JWT-shaped
 *   tokens (signed by this sandbox, `exp` BLUESKY_SESSION_TTL_SECONDS ahead on the sandbox's clock);
 * - `GET app.bsky.feed.searchPosts?q=URL&url=URL&limit=N&cursor=C` pages through the URL's posts, and
 *   answers 401 ExpiredToken for an expired token.
 * The fault modes (`fail`, `throttle`: 429 with `Retry-After: 30`, `429`: without it, `garbage`, `none`: no
 * posts) apply to searchPosts; `reject-credentials` makes createSession answer 401 and refuses every
 * session's search (a revoked app password revokes its sessions); latency and `hang` apply to both.
 */
export const BLUESKY_MODES = ["ok", "none", "fail", "throttle", "429", "garbage", "hang", "reject-credentials"] as const;
export type BlueskyMode = (typeof BLUESKY_MODES)[number];

export const BLUESKY_SESSION_TTL_SECONDS = 600;

/** Bodies served by searchPosts in "garbage" mode; which one depends on the URL. */
export const BLUESKY_GARBAGE_BODIES = [
  "<html><body>upstream connect error</body></html>",
  '{"posts":[{"likeCount":-1}]}',
  '{"posts":"none"}',
] as const;

/** Bluesky's twin also counts the sessions it created. */
export class BlueskyTwin extends TwinState<BlueskyMode, never> {
  sessions = 0;

  override reset(): void {
    super.reset();
    this.sessions = 0;
  }
}

const sessionRequestSchema = z.object({ identifier: z.string().min(1), password: z.string().min(1) });
const tokenPayloadSchema = z.object({ exp: z.number() });

const xrpcError = (c: Context, status: 400 | 401 | 429 | 500, error: string, message: string, headers?: Record<string, string>) =>
  c.json({ error, message }, status, headers);

export function mountBluesky(app: Hono, twin: BlueskyTwin, delays: Delays, now: () => number): void {
  const secret = randomBytes(32);
  const sign = (data: string) => createHmac("sha256", secret).update(data).digest();
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

  function issue(did: string, scope: string): string {
    const iat = Math.floor(now() / 1000);
    const claims = { scope, sub: did, aud: "did:web:sandbox", iat, exp: iat + BLUESKY_SESSION_TTL_SECONDS };
    const unsigned = `${encode({ typ: "at+jwt", alg: "HS256" })}.${encode(claims)}`;
    return `${unsigned}.${sign(unsigned).toString("base64url")}`;
  }

  /** Null when the bearer token is good; else the error Bluesky would answer. */
  function refusal(c: Context): Response | null {
    const bearer = /^Bearer (.+)$/.exec(c.req.header("authorization") ?? "")?.[1];
    if (bearer === undefined) return xrpcError(c, 401, "AuthenticationRequired", "Authentication Required");
    const [header, payload, signature] = bearer.split(".");
    const expected = sign(`${header}.${payload}`);
    if (!Buffer.from(signature ?? "", "base64url").equals(expected)) return xrpcError(c, 401, "InvalidToken", "Malformed token");
    // Signed here, so the payload is one this twin wrote.
    const claims = tokenPayloadSchema.parse(JSON.parse(Buffer.from(payload!, "base64url").toString("utf8")));
    return claims.exp * 1000 <= now() ? xrpcError(c, 401, "ExpiredToken", "Token has expired") : null;
  }

  app.post("/bluesky/xrpc/com.atproto.server.createSession", async (c) => {
    twin.sessions++;
    const { mode } = twin.knobs;
    if (!(await delays.wait(c, twin.knobs))) return gone();
    if (mode === "reject-credentials") return xrpcError(c, 401, "AuthenticationRequired", "Invalid identifier or password");
    const request = sessionRequestSchema.safeParse(await c.req.json().catch(() => undefined));
    if (!request.success) return xrpcError(c, 400, "InvalidRequest", "Input must have the properties identifier and password");
    const { identifier } = request.data;
    const did = `did:plc:${createHash("sha256").update(identifier).digest("hex").slice(0, 24)}`;
    return c.json({ did, handle: identifier, active: true, accessJwt: issue(did, "com.atproto.appPass"), refreshJwt: issue(did, "com.atproto.refresh") });
  });

  app.get("/bluesky/xrpc/app.bsky.feed.searchPosts", (c) => {
    const url = c.req.query("url") ?? c.req.query("q") ?? "";
    return answerMode(c, twin, delays, url, {
      fail: () => xrpcError(c, 500, "InternalServerError", "Internal Server Error"),
      tooMany: (headers) => xrpcError(c, 429, "RateLimitExceeded", "Rate Limit Exceeded", headers),
      garbageBodies: BLUESKY_GARBAGE_BODIES,
      // Revoking an app password revokes its sessions too.
      ok: (derived, none) =>
        twin.knobs.mode === "reject-credentials"
          ? xrpcError(c, 401, "AuthenticationRequired", "Token has been revoked")
          : searchPosts(c, url, none ? [] : derived.bluesky),
    });
  });

  /** A page of searchPosts over all of the URL's posts, once the token and parameters pass. */
  function searchPosts(c: Context, url: string, all: BlueskyPostCounts[]): Response {
    const refused = refusal(c);
    if (refused) return refused;
    if (!c.req.query("q")) return xrpcError(c, 400, "InvalidRequest", 'Error: Params must have the property "q"');
    const limit = Number(c.req.query("limit") ?? 25);
    const offset = Number(c.req.query("cursor") ?? 0);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) return xrpcError(c, 400, "InvalidRequest", "Error: limit must be 1 to 100");
    if (!Number.isInteger(offset) || offset < 0) return xrpcError(c, 400, "InvalidRequest", "Error: bad cursor");

    const posts = all.slice(offset, offset + limit).map((counts, i) => {
      const rkey = `3sandbox${(offset + i).toString(36).padStart(5, "0")}`;
      const author = "did:plc:sandboxauthor0000000000";
      return {
        uri: `at://${author}/app.bsky.feed.post/${rkey}`,
        cid: `bafyreisandbox${rkey}`,
        author: { did: author, handle: "sandbox.bsky.social" },
        record: { $type: "app.bsky.feed.post", text: url, createdAt: "2025-01-01T00:00:00.000Z" },
        ...counts,
        indexedAt: "2025-01-01T00:00:00.000Z",
      };
    });
    const next = offset + limit;
    return c.json(next < all.length ? { posts, cursor: String(next) } : { posts });
  }
}
