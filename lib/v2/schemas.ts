import { z } from "zod";
import { isNetworkId, NETWORK_IDS, type NetworkId } from "../counts/all-networks.ts";
import { bulkJobNameSchema, MAX_JOB_NAME_LENGTH } from "../bulk/job-name.ts";
import { NETWORK_REASONS, REASON_MEANINGS } from "./reasons.ts";

/**
 * The v2 API's requests and answers as zod schemas: the API's routes validate with them, the OpenAPI document
 * is generated from them (service/openapi/document.ts), and the dashboard checks the answers it reads with
 * them, so none of the three can drift from the others.
 */

export const count = z.number().int().min(0);
const nullableCount = count.nullable();
const status = z.enum(["ok", "stale", "unavailable"]).meta({
  description:
    "ok: fetched now or cached; stale: the network gave no fresh value and its last known value is shown (see age_seconds); unavailable: no value (values are null). stale and unavailable say why in reason",
});
const ageSeconds = z.number().int().min(0).optional().meta({ description: "With status stale: how old the value is" });
/** Why a network has no fresh value: a component of its own in the OpenAPI document, so each reason is explained once. */
const reason = z
  .enum(NETWORK_REASONS)
  .meta({
    id: "NetworkReason",
    description:
      "With status stale or unavailable, why the network has no fresh value (on /v2/counts always; on the tracked answers for networks without a value): " +
      NETWORK_REASONS.map((name) => `${name} (${REASON_MEANINGS[name]})`).join("; "),
  })
  .optional();
const retryAt = z.iso.datetime().nullable().optional().meta({
  description: "With a reason: when the network is asked again for this URL, where known (a tracked URL's next refresh at the earliest)",
});
/** The fields every network object has besides its numbers. */
export const STATUS_FIELDS = ["status", "age_seconds", "reason", "retry_at"];

export const facebookV2Schema = z
  .object({
    status,
    age_seconds: ageSeconds,
    reason,
    retry_at: retryAt,
    total_count: nullableCount,
    comment_count: nullableCount,
    reaction_count: nullableCount,
    share_count: nullableCount,
    comment_plugin_count: nullableCount,
  })
  .meta({ id: "FacebookCounts" });

export const pinterestV2Schema = z.object({ status, age_seconds: ageSeconds, reason, retry_at: retryAt, count: nullableCount }).meta({ id: "PinterestCounts" });

/** A network's object: its status and numbers; `signed` names numbers that may be below 0 (Reddit's score). */
function networkV2<F extends string>(id: string, description: string, fields: Record<F, string>, signed: readonly NoInfer<F>[] = []) {
  const counts = {} as Record<F, z.ZodNullable<z.ZodNumber>>;
  for (const [name, about] of Object.entries(fields) as [F, string][]) {
    counts[name] = (signed.includes(name) ? z.number().int().nullable() : nullableCount).meta({ description: about });
  }
  return z.object({ status, age_seconds: ageSeconds, reason, retry_at: retryAt, ...counts }).meta({ id, description });
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

/** A network's numbers as its v2 object names them, in the API's order: its schema's fields but the status ones. */
export const numberFieldsOf = (id: NetworkId): string[] => Object.keys(networksV2Schema.shape[id].unwrap().shape).filter((field) => !STATUS_FIELDS.includes(field));

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

/**
 * A whole number in a query string, in digits only: zod's coercion (`Number()`) would also take `0x10`, `1e2`,
 * ` 100` or `1.0`, which no client means to send.
 */
export const queryInteger = (min: number, max: number) =>
  z.preprocess(
    (value) => (typeof value === "string" && /^\d{1,15}$/.test(value) ? Number(value) : value),
    z.number({ error: `must be a whole number from ${min} to ${max}, written in digits` }).int().min(min).max(max),
  );

export const apikey = z.string().optional().meta({ description: "The API key (or send Authorization: Bearer <key>)" });
export const urlParam = z.string().min(1).meta({ description: "A complete http(s) URL, percent-encoded", example: "https://example.com/post" });
export const flag = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");

export const countsQuerySchema = z.strictObject({
  url: urlParam,
  apikey,
  networks: networkListSchema
    .optional()
    .meta({
      description: `Comma-separated: ${V2_NETWORKS.join(", ")}. Only these networks are asked and answered (default: the networks the account shows). One this service does not ask (see GET /v2/networks) is answered unavailable, reason not_configured`,
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
    name: bulkJobNameSchema.optional().meta({
      description: `What the job is called (say, the file the URLs came from): at most ${MAX_JOB_NAME_LENGTH} characters, trimmed, no control characters, direction overrides or line breaks`,
    }),
  })
  .meta({ id: "BulkRequest", description: "A bulk job of API v2: as v1's, with each URL answered in v2 network objects" });

const jobName = z.string().nullable().meta({ description: "The job's name; null when none was given (every job submitted through API v1)" });

export const bulkSubmittedSchema = z.object({ count: count, bulk_id: z.string(), name: jobName }).meta({ id: "BulkSubmitted" });

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
      name: jobName,
      quota_spent: count.meta({ description: "Queries of the daily quota the job has spent so far: one per URL counted (repeats and refused URLs spend none)" }),
    }),
  })
  .meta({ id: "BulkJob" });

export const networkHealthSchema = z
  .object({
    network: z.enum(NETWORK_IDS),
    name: z.string().meta({ description: "The network's name, for people" }),
    enabled: z.boolean().meta({ description: "This service asks the network (SHARECOUNT_V2_NETWORKS)" }),
    state: z.enum(["ok", "throttled", "unavailable", "credentials_rejected", "budget_exhausted", "disabled"]).meta({
      description:
        "throttled: the network asked us to slow down, or this service's budget for it is used up, until retry_at; unavailable: its last answer was an error; credentials_rejected: it refused this service's credentials; budget_exhausted: the share of its budget scheduled refreshes of tracked URLs may take is spent until retry_at (live queries still get the rest); disabled: not asked",
    }),
    retry_at: z.iso.datetime().nullable().meta({ description: "With state throttled or budget_exhausted: when it is asked again" }),
    last_success_at: z.iso.datetime().nullable(),
    errors_last_hour: count.meta({ description: "Calls of the last 60 minutes that failed" }),
    calls_last_hour: count.meta({ description: "Calls made in the last 60 minutes" }),
    skipped_last_hour: count.meta({
      description:
        "Calls not made in the last 60 minutes: a budget was spent (this service's per-URL, app-wide or refresh budget for the network) or the network had asked us to wait. The URLs asked were answered with their last known counts, or not reported",
    }),
    budget: z.object({
      per_hour: count.nullable().meta({ description: "Calls allowed per hour (null: none set)" }),
      used_last_hour: count,
      refresh_per_hour: count.nullable().meta({ description: "The share of per_hour scheduled refreshes may take (REFRESH_BUDGET_SHARE; null: no budget)" }),
      refresh_used_last_hour: count.meta({ description: "What refreshes took of it in the last hour (shared fairly between the accounts with due URLs)" }),
    }),
  })
  .meta({ id: "NetworkHealth" });

export const networksAnswerSchema = z.object({ networks: z.array(networkHealthSchema) }).meta({ id: "NetworksHealth" });

export const errorSchema = z
  .object({ Error: z.string().meta({ description: "What went wrong, for people" }), Type: z.string().meta({ description: "A stable code" }) })
  .meta({ id: "Error" });
