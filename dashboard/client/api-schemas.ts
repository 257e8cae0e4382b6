import { z } from "zod";
import { API_ERROR_CODES } from "../../lib/errors.ts";

/** The share-count API's answers, as the dashboard reads them (v1.0 shapes). */

const count = z.number().int().nonnegative().nullable();

export const facebookSchema = z.object({
  total_count: count,
  comment_count: count,
  reaction_count: count,
  share_count: count,
  comment_plugin_count: count,
});

export const countObjectSchema = z.object({
  StumbleUpon: z.null().optional(),
  Pinterest: count,
  LinkedIn: z.null().optional(),
  Facebook: facebookSchema,
  GooglePlusOne: z.null().optional(),
});
export type CountObject = z.infer<typeof countObjectSchema>;

export const quotaSchema = z.object({
  quota_used_today: z.number().int(),
  plan: z.string(),
  quota_remaining_today: z.number().int(),
  quota_allocated_today: z.number().int(),
  quota_resets_at: z.string(),
});
export type Quota = z.infer<typeof quotaSchema>;

export const whitelistSchema = z.object({
  domains: z.array(z.string()),
  whitelist_domains_enabled: z.boolean(),
});
export type Whitelist = z.infer<typeof whitelistSchema>;

export const statusSchema = z.object({ status: z.string() });

export const apiErrorSchema = z.object({ Error: z.string(), Type: z.enum(API_ERROR_CODES) });
