import { z } from "zod";
import { isNetworkId, NETWORK_IDS, type NetworkId } from "../counts/all-networks.ts";

/**
 * The v2 API's requests and answers as zod schemas: the API's routes validate with them, the OpenAPI document
 * is generated from them (service/openapi/document.ts), and the dashboard checks the answers it reads with
 * them, so none of the three can drift from the others.
 */

const count = z.number().int().min(0);
const nullableCount = count.nullable();
const status = z.enum(["ok", "stale", "unavailable"]).meta({
  description: "ok: fetched now or cached; stale: the network failed and its last known value is shown (see age_seconds); unavailable: no value (values are null)",
});
const ageSeconds = z.number().int().min(0).optional().meta({ description: "With status stale: how old the value is" });

export const facebookV2Schema = z
  .object({
    status,
    age_seconds: ageSeconds,
    total_count: nullableCount,
    comment_count: nullableCount,
    reaction_count: nullableCount,
    share_count: nullableCount,
    comment_plugin_count: nullableCount,
  })
  .meta({ id: "FacebookCounts" });

export const pinterestV2Schema = z.object({ status, age_seconds: ageSeconds, count: nullableCount }).meta({ id: "PinterestCounts" });

/** A network's object: its status and numbers; `signed` names numbers that may be below 0 (Reddit's score). */
function networkV2<F extends string>(id: string, description: string, fields: Record<F, string>, signed: readonly NoInfer<F>[] = []) {
  const counts = {} as Record<F, z.ZodNullable<z.ZodNumber>>;
  for (const [name, about] of Object.entries(fields) as [F, string][]) {
    counts[name] = (signed.includes(name) ? z.number().int().nullable() : nullableCount).meta({ description: about });
  }
  return z.object({ status, age_seconds: ageSeconds, ...counts }).meta({ id, description });
}

export const redditV2Schema = networkV2(
  "RedditCounts",
  "Summed over the URL's Reddit submissions; none is a real 0",
  { score: "Upvotes less downvotes, summed (may be below 0)", comments: "Comments, summed", posts: "Submissions of the URL" },
  ["score"],
);
export const hackerNewsV2Schema = networkV2(
  "HackerNewsCounts",
  "Summed over the Hacker News stories whose URL is this URL",
  { points: "Points, summed", comments: "Comments, summed", stories: "Stories linking the URL" },
  ["points"],
);
export const blueskyV2Schema = networkV2("BlueskyCounts", "Summed over the Bluesky posts found linking the URL (up to 500)", {
  likes: "Likes",
  reposts: "Reposts",
  replies: "Replies",
  quotes: "Quotes",
  posts: "Posts found",
});
export const vkV2Schema = networkV2("VkCounts", "VK's share counter", { count: "Shares" });
export const okV2Schema = networkV2("OkCounts", "OK.ru's share counter", { count: "Shares" });
export const tumblrV2Schema = networkV2("TumblrCounts", "Tumblr's notes (likes and reblogs) of posts linking the URL", { notes: "Notes" });

export const networksV2Schema = z
  .object({
    facebook: facebookV2Schema.optional(),
    pinterest: pinterestV2Schema.optional(),
    reddit: redditV2Schema.optional(),
    hackernews: hackerNewsV2Schema.optional(),
    bluesky: blueskyV2Schema.optional(),
    vk: vkV2Schema.optional(),
    ok: okV2Schema.optional(),
    tumblr: tumblrV2Schema.optional(),
  })
  .meta({ id: "Networks", description: "One object per network asked (by default, the networks the account shows)" });

export const V2_NETWORKS = NETWORK_IDS;
export type V2Network = NetworkId;

/** A comma-separated list of network ids. */
export const networkListSchema = z.string().transform((list, ctx) => {
  const names = [...new Set(list.split(",").map((n) => n.trim().toLowerCase()).filter(Boolean))];
  const unknown = names.filter((n) => !isNetworkId(n));
  if (unknown.length > 0 || names.length === 0) {
    ctx.addIssue({ code: "custom", message: `networks must be a comma-separated list of ${V2_NETWORKS.join(", ")}` });
    return z.NEVER;
  }
  return names as V2Network[];
});

const apikey = z.string().optional().meta({ description: "The API key (or send Authorization: Bearer <key>)" });
const urlParam = z.string().min(1).meta({ description: "A complete http(s) URL, percent-encoded", example: "https://example.com/post" });
const flag = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");

export const countsQuerySchema = z.strictObject({
  url: urlParam,
  apikey,
  networks: networkListSchema
    .optional()
    .meta({
      description: `Comma-separated: ${V2_NETWORKS.join(", ")}. Only these networks are asked and answered (default: the networks the account shows; see GET /v2/networks for those this service asks)`,
    }),
  variants: flag.optional().meta({ description: "true: also count the http/https × www forms and answer their combined counts" }),
});

export const countsAnswerSchema = z
  .object({
    url: z.string(),
    fetched_at: z.iso.datetime(),
    networks: networksV2Schema,
    variants: z.array(z.object({ url: z.string(), networks: networksV2Schema })).optional(),
  })
  .meta({ id: "CountsAnswer" });

export const MAX_TRACKED_PER_REQUEST = 10_000;

export const trackBodySchema = z
  .strictObject({
    urls: z
      .array(z.string())
      .min(1, "urls must hold at least one URL")
      .max(MAX_TRACKED_PER_REQUEST, `at most ${MAX_TRACKED_PER_REQUEST} URLs per request: split the list, or import a sitemap`)
      .optional()
      .meta({ description: `URLs to track now, at most ${MAX_TRACKED_PER_REQUEST} per request` }),
    sitemap: z.string().min(1).max(2048).optional().meta({ description: "A sitemap or sitemap index (gzipped files too) to import URLs from" }),
    feed: z.string().min(1).max(2048).optional().meta({ description: "An RSS or Atom feed to import URLs from, read again daily" }),
  })
  .refine((body) => [body.urls, body.sitemap, body.feed].filter((v) => v !== undefined).length === 1, "send exactly one of urls, sitemap or feed")
  .meta({ id: "TrackRequest", description: "Exactly one of urls, sitemap or feed" });

export const trackAnswerSchema = z
  .object({
    added: count,
    already_tracked: count.meta({ description: "Tracked before, or repeated in the request" }),
    invalid: count.meta({ description: "Not countable URLs (skipped)" }),
  })
  .meta({ id: "TrackAnswer" });

export const importQueuedSchema = z.object({ import_id: z.string(), status: z.literal("queued") }).meta({ id: "ImportQueued" });

export const importAnswerSchema = z
  .object({
    status: z.enum(["queued", "running", "done", "failed"]),
    urls_found: count,
    added: count,
    error: z.string().optional().meta({ description: "Why the import failed, for people" }),
  })
  .meta({ id: "Import" });

export const trackedListQuerySchema = z.strictObject({
  apikey,
  sort: z.enum(["total", "change_7d", "added"]).default("added"),
  order: z.enum(["desc", "asc"]).default("desc"),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  cursor: z.string().max(200).optional().meta({ description: "next_cursor of the previous page" }),
  q: z.string().max(200).optional().meta({ description: "Only URLs containing this text" }),
  filter: z
    .enum(["growing", "uncounted"])
    .optional()
    .meta({ description: "growing: only URLs whose 7-day change is above 0; uncounted: only URLs not refreshed yet" }),
  sparkline: flag.optional().meta({ description: "true: each row also carries `sparkline`, its daily totals over the last 30 days" }),
});

export const trackedItemSchema = z
  .object({
    url: z.string(),
    added_at: z.iso.datetime(),
    last_refreshed_at: z.iso.datetime().nullable(),
    next_refresh_at: z.iso.datetime().nullable(),
    networks: networksV2Schema,
    total: count.nullable().meta({
      description:
        "The sum of the headline numbers of the networks the account shows: Facebook total_count, Pinterest count, Reddit score + comments, Hacker News points + comments, Bluesky likes + reposts + replies + quotes, VK count, OK.ru count, Tumblr notes (as of the last refresh; change_7d and change_30d compare the same)",
    }),
    change_7d: z.number().int().nullable(),
    change_30d: z.number().int().nullable(),
    sparkline: z
      .array(count.nullable())
      .length(30)
      .optional()
      .meta({ description: "With sparkline=true: the URL's own total on each of the last 30 days (UTC, oldest first; null: no point that day)" }),
  })
  .meta({ id: "TrackedUrl" });

export const trackedListAnswerSchema = z
  .object({ data: z.array(trackedItemSchema), next_cursor: z.string().nullable() })
  .meta({ id: "TrackedList" });

export const aliasesBodySchema = z
  .object({ url: z.string().min(1), aliases: z.array(z.string()).max(10) })
  .strict()
  .meta({ id: "AliasesRequest", description: "The tracked URL's older addresses (at most 10): their counts are added to its own" });

export const aliasesAnswerSchema = z.object({ url: z.string(), aliases: z.array(z.string()) }).meta({ id: "Aliases" });

export const trackedUrlAnswerSchema = trackedItemSchema
  .extend({
    aliases: z.array(z.string()),
    count_variants: z.boolean().meta({ description: "The account counts the http/https × www forms (a dashboard setting)" }),
    forms: z.array(
      z.object({
        url: z.string(),
        kind: z.enum(["url", "variant", "alias"]),
        observed_at: z.iso.datetime().nullable(),
        networks: networksV2Schema,
        facebook_counted: z.boolean().meta({ description: "False: an earlier form had the same Facebook engagement in that refresh, so it is counted once" }),
      }),
    ),
  })
  .meta({ id: "TrackedUrlDetail" });

export const trackedStatusSchema = z
  .object({
    tracked: count,
    limit: count.meta({ description: "The plan's tracked-URL limit" }),
    due: count.meta({ description: "This account's URLs due for a refresh now" }),
    oldest_due_at: z.iso.datetime().nullable(),
    delayed: z.boolean().meta({ description: "Refreshes run late: the upstream budget cannot cover the schedule right now" }),
  })
  .meta({ id: "TrackedStatus" });

export const untrackQuerySchema = z.strictObject({ url: urlParam, apikey });

const day = z.iso.date().meta({ description: "YYYY-MM-DD (UTC)" });

export const historyQuerySchema = z.strictObject({
  url: urlParam,
  apikey,
  from: day.optional().meta({ description: "First day (UTC), default 30 days ago" }),
  to: day.optional().meta({ description: "Last day (UTC), included; default today" }),
  interval: z.enum(["hour", "day"]).default("day"),
});

export const historyAnswerSchema = z
  .object({
    url: z.string(),
    interval: z.enum(["hour", "day"]),
    points: z.array(z.object({ t: z.iso.datetime(), networks: networksV2Schema })),
  })
  .meta({ id: "History" });

export const bulkBodySchema = z
  .strictObject({
    urls: z.array(z.string()).min(1, "urls must hold at least one URL").meta({ description: "The URLs to count, at most the plan's batch limit" }),
    networks: z
      .array(z.string().transform((name) => name.trim().toLowerCase()).pipe(z.enum(NETWORK_IDS)))
      .min(1)
      .max(NETWORK_IDS.length, `networks lists each of ${NETWORK_IDS.join(", ")} at most once`)
      .transform((names) => [...new Set(names)])
      .optional()
      .meta({ description: "The networks to ask for every URL (default: the networks the account shows)" }),
  })
  .meta({ id: "BulkRequest", description: "A bulk job of API v2: as v1's, with each URL answered in v2 network objects" });

export const bulkSubmittedSchema = z.object({ count: count, bulk_id: z.string() }).meta({ id: "BulkSubmitted" });

export const bulkQuerySchema = z.strictObject({
  bulk_id: z.string().min(1),
  apikey,
  force: z.enum(["1"]).optional().meta({ description: "1: the results so far, before the job completes" }),
});

export const bulkAnswerSchema = z
  .object({
    data: z.union([z.record(z.string(), networksV2Schema), z.array(z.unknown()).max(0)]).meta({
      description: "Each URL as submitted, with its networks; an empty array until the job completes (unless force=1)",
    }),
    _meta: z.object({
      urls_completed: count,
      urls_queued: count,
      completed: z.boolean(),
      bulk_id: z.string(),
      paused_until: z.iso.datetime().optional().meta({ description: "The account's daily quota is used up: the job waits until then" }),
    }),
  })
  .meta({ id: "BulkJob" });

export const networkHealthSchema = z
  .object({
    network: z.enum(NETWORK_IDS),
    name: z.string().meta({ description: "The network's name, for people" }),
    enabled: z.boolean().meta({ description: "This service asks the network (SHARECOUNT_V2_NETWORKS)" }),
    state: z.enum(["ok", "throttled", "unavailable", "credentials_rejected", "disabled"]).meta({
      description:
        "throttled: the network asked us to slow down, or this service's budget for it is used up, until retry_at; unavailable: its last answer was an error; credentials_rejected: it refused this service's credentials; disabled: not asked",
    }),
    retry_at: z.iso.datetime().nullable().meta({ description: "With state throttled: when it is asked again" }),
    last_success_at: z.iso.datetime().nullable(),
    errors_last_hour: count,
    calls_last_hour: count,
    budget: z.object({ per_hour: count.nullable().meta({ description: "Calls allowed per hour (null: none set)" }), used_last_hour: count }),
  })
  .meta({ id: "NetworkHealth" });

export const networksAnswerSchema = z.object({ networks: z.array(networkHealthSchema) }).meta({ id: "NetworksHealth" });

export const errorSchema = z
  .object({ Error: z.string().meta({ description: "What went wrong, for people" }), Type: z.string().meta({ description: "A stable code" }) })
  .meta({ id: "Error" });
