import { z } from "zod";

/**
 * v1.0 and v1.1's answers as zod schemas, for the OpenAPI document and the contract tests that check the
 * API answers them. The v1 routes parse their parameters by hand (the hot path); these describe the wire.
 */

const count = z.number().int().min(0);
const facebook = z
  .object({
    total_count: count.nullable(),
    comment_count: count.nullable(),
    reaction_count: count.nullable(),
    share_count: count.nullable(),
    comment_plugin_count: count.nullable(),
  })
  .strict()
  .meta({ id: "V1Facebook", description: "Always an object; its values are null when Facebook did not report" });

export const v11CountSchema = z
  .object({ Pinterest: count.nullable(), Facebook: facebook })
  .strict()
  .meta({ id: "V11CountObject" });

export const v10CountSchema = z
  .object({
    StumbleUpon: z.null(),
    Pinterest: count.nullable(),
    LinkedIn: z.null(),
    Facebook: facebook,
    GooglePlusOne: z.null(),
  })
  .strict()
  .meta({ id: "V10CountObject", description: "The retired networks' keys stay, as null: clients read them unchecked" });

export const v1CountQuerySchema = z.object({
  url: z.string().meta({ description: "The URL to count, percent-encoded" }),
  apikey: z.string().meta({ description: "Your API key" }),
  callback: z.string().optional().meta({ description: "JSONP: the answer is `/**/ callback(…);`" }),
  custom_ttl: z.string().regex(/^\d+$/).optional().meta({ description: "Dedicated plan: how old (0 to 3600 seconds) a cached answer may be; 0 fetches fresh" }),
});

export const bulkSubmitAnswerSchema = z.object({ count: count, bulk_id: z.string() }).meta({ id: "BulkSubmitted" });

export const bulkResultSchema = z
  .object({
    data: z.union([z.record(z.string(), z.unknown()), z.array(z.unknown()).max(0)]).meta({
      description: "The count object of each URL, by URL as submitted; an empty array until the job completes (unless force=1)",
    }),
    _meta: z.object({
      urls_completed: count,
      urls_queued: count,
      completed: z.boolean(),
      bulk_id: z.string(),
      paused_until: z.string().optional().meta({ description: "The account's daily quota is used up: the job waits until then" }),
    }),
  })
  .meta({ id: "BulkResult" });

export const quotaAnswerSchema = z
  .object({
    quota_used_today: count,
    plan: z.string(),
    quota_remaining_today: count,
    quota_allocated_today: count,
    quota_resets_at: z.string(),
  })
  .meta({ id: "Quota" });

export const usageAnswerSchema = z
  .record(z.string(), z.object({ date: z.string(), queries: count, quota: count }))
  .meta({ id: "Usage", description: "Every day of the last 90, oldest first, keyed by its date" });

export const whitelistAnswerSchema = z
  .object({ domains: z.array(z.string()), whitelist_domains_enabled: z.boolean() })
  .meta({ id: "DomainWhitelist" });

export const statusAnswerSchema = z.object({ status: z.literal("up") }).meta({ id: "Status" });
