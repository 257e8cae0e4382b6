import { z } from "zod";
import { apikey, count, flag, networksV2Schema, queryInteger, urlParam } from "./schemas.ts";

/** API v2's tracked URLs and imports: requests and answers (lib/v2/schemas.ts has counts, history and bulk). */

export const MAX_TRACKED_PER_REQUEST = 10_000;

export const trackBodySchema = z
  .strictObject({
    urls: z
      .array(z.string())
      .min(1, "urls must hold at least one URL")
      .max(MAX_TRACKED_PER_REQUEST, `at most ${MAX_TRACKED_PER_REQUEST} URLs per request: split the list, or import a sitemap`)
      .optional()
      .meta({
        description: `URLs to track now, at most ${MAX_TRACKED_PER_REQUEST} per request. One without a scheme, a bare host or host/path (example.org/page), is read as https:// (https://example.org/page)`,
      }),
    sitemap: z.string().min(1).max(2048).optional().meta({ description: "A sitemap or sitemap index (gzipped files too) to import URLs from" }),
    feed: z.string().min(1).max(2048).optional().meta({ description: "An RSS or Atom feed to import URLs from, read again daily" }),
    on_limit: z.enum(["refuse", "add_what_fits"]).default("refuse").meta({
      description:
        "With urls: when the new URLs do not all fit the plan's free slots or today's quota, refuse (403, nothing added) or add the first that fit (over_limit and over_quota say how many did not)",
    }),
  })
  .refine((body) => [body.urls, body.sitemap, body.feed].filter((v) => v !== undefined).length === 1, "send exactly one of urls, sitemap or feed")
  .meta({ id: "TrackRequest", description: "Exactly one of urls, sitemap or feed. Each URL newly tracked spends one query of today's quota." });

export const trackAnswerSchema = z
  .object({
    added: count.meta({ description: "Newly tracked: each spent one query of today's quota" }),
    already_tracked: count.meta({ description: "Tracked before, or repeated in the request (free)" }),
    invalid: count.meta({ description: "Not countable URLs (skipped)" }),
    over_limit: count.meta({ description: "With add_what_fits: new URLs past the plan's free slots (not added)" }),
    over_quota: count.meta({ description: "With add_what_fits: new URLs that fit a slot but not today's quota (not added)" }),
  })
  .meta({ id: "TrackAnswer" });

export const importQueuedSchema = z.object({ import_id: z.string(), status: z.literal("queued") }).meta({ id: "ImportQueued" });

const notAddedSchema = z
  .object({
    already_tracked: count.meta({ description: "Tracked before, or listed twice" }),
    invalid: count.meta({ description: "Not countable URLs" }),
    too_long: count.meta({ description: "Entries over 2,048 characters (dropped unread)" }),
    not_whitelisted: count.meta({ description: "Off the account's enforced domain whitelist" }),
    over_limit: count.meta({ description: "Past the plan's free tracked-URL slots" }),
    over_quota: count.meta({ description: "Past what was left of today's quota (each new URL spends one query)" }),
  })
  .meta({ id: "ImportNotAdded", description: "URLs read and not added, by reason" });

export const IMPORT_STOP_REASONS = ["tracked_limit", "quota", "file_limit", "byte_limit", "url_limit", "time_limit"] as const;

export const importAnswerSchema = z
  .object({
    status: z.enum(["queued", "running", "done", "failed", "cancelled"]),
    kind: z.enum(["sitemap", "feed"]),
    source_url: z.string(),
    urls_found: count.meta({ description: "URL entries read (<loc>s, feed items), in this run" }),
    added: count,
    not_added: notAddedSchema,
    files: count.meta({ description: "Documents read" }),
    stopped: z
      .enum(IMPORT_STOP_REASONS)
      .nullable()
      .meta({
        description:
          "Why reading stopped before the end, keeping what was added: tracked_limit (no free slot left), quota (today's quota spent), file_limit (1,000 documents), byte_limit (200 MiB read), url_limit (500,000 entries), time_limit (5 minutes)",
      }),
    attempts: count.meta({ description: "Runs begun; an import whose runs all end without an outcome (3) fails" }),
    error: z.string().optional().meta({ description: "Why the import failed, for people (what was added before stays)" }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    next_read_at: z.iso.datetime().nullable().meta({ description: "Feeds: when the feed is read again" }),
  })
  .meta({ id: "Import" });

export const trackedListQuerySchema = z.strictObject({
  apikey,
  sort: z.enum(["total", "change_7d", "added"]).default("added"),
  order: z.enum(["desc", "asc"]).default("desc"),
  limit: queryInteger(1, 1000).default(100),
  cursor: z.string().max(200).optional().meta({ description: "next_cursor of the previous page" }),
  q: z
    .string()
    .max(200)
    .refine((text) => !/[\u0000-\u001f]/.test(text), "q may not contain control characters")
    .optional()
    .meta({ description: "Only URLs containing this text" }),
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

