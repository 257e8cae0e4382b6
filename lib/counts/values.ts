import { z } from "zod";

/** The values a network reports for one URL: what the API answers, the cache holds and the database keeps. */

export type NetworkName = "Facebook" | "Pinterest";

const count = z.number().int().min(0);
const optionalText = z.string().optional();

export const ogObjectSchema = z.object({
  id: z.string(),
  title: optionalText,
  type: optionalText,
  description: optionalText,
  updated_time: optionalText,
});
export type OgObject = z.infer<typeof ogObjectSchema>;

/** The Facebook object of the count object; `total_count` is the sum of the four parts. */
export const facebookCountsSchema = z.object({
  total_count: count,
  comment_count: count,
  reaction_count: count,
  share_count: count,
  comment_plugin_count: count,
  og_object: ogObjectSchema.nullable(),
});
export type FacebookCounts = z.infer<typeof facebookCountsSchema>;

export type PinterestCount = number;

export interface NetworkValues {
  Facebook: FacebookCounts;
  Pinterest: PinterestCount;
}

/** Each network's value, as read back from storage. */
export const networkValueSchemas: { [N in NetworkName]: z.ZodType<NetworkValues[N]> } = {
  Facebook: facebookCountsSchema,
  Pinterest: count,
};

/** What the service holds for one URL: each network's value, or null when it did not report. */
export type StoredCounts = { [N in NetworkName]: NetworkValues[N] | null };

export const storedCountsSchema: z.ZodType<StoredCounts> = z.object({
  Facebook: facebookCountsSchema.nullable(),
  Pinterest: count.nullable(),
});
