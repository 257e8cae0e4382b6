import type { Hono } from "hono";
import { answerMode, TwinState, type Delays } from "./twin.ts";

/**
 * Hacker News search's (Algolia's) twin: `GET /hn/api/v1/search?tags=story&restrictSearchableAttributes=url&query=URL`.
 * Fuzzy like the real one: besides the URL's own stories (spelled as HN shows them: another scheme, `www.`,
 * a trailing slash), it returns near-misses (another page of the site, the URL with another query), an Ask HN
 * post without a URL and a story without points; only the URL's own stories should be counted.
 * `none`: no hits; `throttle`: 429 with `Retry-After: 30`; `429`: 429 without it.
 */
export const HACKERNEWS_MODES = ["ok", "none", "fail", "throttle", "429", "garbage", "hang"] as const;
export type HackerNewsMode = (typeof HACKERNEWS_MODES)[number];

/** Bodies served in "garbage" mode; which one depends on the URL. */
export const HACKERNEWS_GARBAGE_BODIES = [
  "<html><body>502 Bad Gateway</body></html>",
  '{"hits":[{"objectID":"1","url":"https://example.com/","points":"ten","num_comments":0}]}',
  '{"hits":{"objectID":"1"}}',
  '{"message":',
] as const;

export type HackerNewsTwin = TwinState<HackerNewsMode, never>;

/** The same page as HN shows it for the index-th story: as asked, with the other scheme, with `www.` and the trailing slash toggled. */
function respell(url: string, index: number): string {
  if (index === 0 || !URL.canParse(url)) return url;
  const spelled = new URL(url);
  if (index === 1) {
    spelled.protocol = spelled.protocol === "https:" ? "http:" : "https:";
  } else {
    spelled.hostname = spelled.hostname.startsWith("www.") ? spelled.hostname.slice(4) : `www.${spelled.hostname}`;
    spelled.pathname = spelled.pathname.endsWith("/") ? spelled.pathname.slice(0, -1) : `${spelled.pathname}/`;
  }
  return spelled.href;
}

/** Hits the fuzzy search returns that are not stories of this URL. */
function nearMisses(url: string, variant: number): Array<{ url: string | null; points: number | null }> {
  const misses: Array<{ url: string | null; points: number | null }> = [
    { url: null, points: 5 + (variant % 40) },
    { url, points: null },
  ];
  if (!URL.canParse(url)) return misses;
  const otherQuery = new URL(url);
  otherQuery.search = otherQuery.search ? `${otherQuery.search}&ref=hn` : "?ref=hn";
  return [...misses, { url: new URL(`/elsewhere/${variant}`, url).href, points: 1 + variant }, { url: otherQuery.href, points: 2 + variant }];
}

function hit(objectID: string, url: string | null, points: number | null, num_comments: number) {
  return {
    objectID,
    title: url === null ? "Ask HN: a sandbox question" : `Sandbox story ${objectID}`,
    url,
    author: "sandbox",
    points,
    num_comments,
    created_at_i: 1_700_000_000 + (Number(objectID) % 50_000_000),
    _tags: ["story", "author_sandbox", `story_${objectID}`],
  };
}

export function mountHackerNews(app: Hono, twin: HackerNewsTwin, delays: Delays): void {
  app.get("/hn/api/v1/search", (c) => {
    const url = c.req.query("query") ?? "";
    return answerMode(c, twin, delays, url, {
      fail: () => c.json({ message: "Internal Server Error", status: 500 }, 500),
      tooMany: (headers) => c.json({ message: "Too many requests", status: 429 }, 429, headers),
      garbageBodies: HACKERNEWS_GARBAGE_BODIES,
      ok: (derived, none) => {
        const hits = none
          ? []
          : [
              ...derived.hackernews.map((story, i) => hit(story.objectID, respell(url, i), story.points, story.num_comments)),
              ...nearMisses(url, derived.variant).map((miss, i) => hit(String(40_000_000 + derived.variant * 10 + i), miss.url, miss.points, i)),
            ];
        const hitsPerPage = c.req.query("hitsPerPage");
        return c.json({
          hits,
          nbHits: hits.length,
          page: 0,
          nbPages: 1,
          hitsPerPage: hitsPerPage && /^\d+$/.test(hitsPerPage) ? Number(hitsPerPage) : 20,
          exhaustiveNbHits: true,
          query: url,
          params: new URL(c.req.url).search.slice(1),
        });
      },
    });
  });
}
