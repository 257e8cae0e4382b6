import { createHash } from "node:crypto";

export interface FacebookEngagement {
  reaction_count: number;
  comment_count: number;
  share_count: number;
  comment_plugin_count: number;
}

export interface DerivedCounts {
  facebook: FacebookEngagement;
  pinterest: number;
  ogObject: { id: string; title: string; type: string; updated_time: string } | null;
  /** Picks a variant among equivalent failure bodies. */
  variant: number;
}

/** Every twin's counts, derived from sha256(url) so they are stable across runs; about 1 URL in 16 has no engagement at all. */
export function deriveCounts(url: string): DerivedCounts {
  const h = createHash("sha256").update(url).digest();
  const zero = h[0]! < 16;
  const n = (offset: number, max: number) => (zero ? 0 : h.readUInt16BE(offset) % max);
  const hasOg = !zero && h[2]! % 4 !== 0;
  const updated = new Date(Date.UTC(2020, 0, 1) + (h.readUInt32BE(20) % (5 * 365 * 86400)) * 1000);
  return {
    facebook: {
      reaction_count: n(4, 5000),
      comment_count: n(6, 800),
      share_count: n(8, 3000),
      comment_plugin_count: n(10, 50),
    },
    pinterest: n(12, 2000),
    ogObject: hasOg
      ? {
          id: (h.readBigUInt64BE(24) % 10n ** 16n).toString(),
          title: `Sandbox page ${h.toString("hex", 0, 4)}`,
          type: "website",
          updated_time: updated.toISOString().replace(/\.\d{3}Z$/, "+0000"),
        }
      : null,
    variant: h[3]!,
  };
}

export interface RedditSubmission {
  id: string;
  score: number;
  num_comments: number;
}

export interface HackerNewsStory {
  objectID: string;
  points: number;
  num_comments: number;
}

export interface BlueskyPostCounts {
  likeCount: number;
  repostCount: number;
  replyCount: number;
  quoteCount: number;
}

/** What the twins of the networks beyond Facebook and Pinterest hold for a URL in their "ok" mode. */
export interface MoreDerivedCounts {
  /** 1 to 3 submissions; a score may be negative, as on Reddit. */
  reddit: RedditSubmission[];
  /** 1 to 3 stories whose URL is this URL (the twin adds near-misses of its own). */
  hackernews: HackerNewsStory[];
  /** 1 to 250 posts: up to three pages of 100, so following `cursor` matters. */
  bluesky: BlueskyPostCounts[];
  vk: number;
  ok: number;
  tumblr: number;
  /** Picks a variant among equivalent failure bodies. */
  variant: number;
}

/** mulberry32: a small deterministic sequence of numbers below `max`, for lists longer than one hash. */
function sequence(seed: number): (max: number) => number {
  let state = seed >>> 0;
  return (max) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) % max;
  };
}

/**
 * The counts of the networks beyond Facebook and Pinterest, from their own hash of the URL (so they vary
 * independently of deriveCounts'); stable across runs. Every URL has something: the "none" mode is how a
 * twin says it has nothing.
 */
export function deriveMoreCounts(url: string): MoreDerivedCounts {
  const h = createHash("sha256").update("more-networks\n").update(url).digest();
  const next = sequence(h.readUInt32BE(0));
  const list = <T>(length: number, item: () => T) => Array.from({ length }, item);
  return {
    reddit: list(1 + next(3), () => ({ id: next(36 ** 6).toString(36), score: next(5010) - 10, num_comments: next(900) })),
    hackernews: list(1 + next(3), () => ({ objectID: String(30_000_000 + next(10_000_000)), points: 1 + next(800), num_comments: next(400) })),
    bluesky: list(1 + next(250), () => ({ likeCount: next(500), repostCount: next(100), replyCount: next(60), quoteCount: next(20) })),
    vk: next(5000),
    ok: next(3000),
    tumblr: next(10_000),
    variant: h[4]!,
  };
}
