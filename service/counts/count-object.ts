import type { StoredCounts } from "../../lib/counts/values.ts";
import { engagementOf } from "../../lib/history/observed.ts";

export type ApiVersion = "1.0" | "1.1";

export const FACEBOOK_NOT_REPORTED = {
  total_count: null,
  comment_count: null,
  reaction_count: null,
  share_count: null,
  comment_plugin_count: null,
} as const;

/**
 * The wire count object. Facebook is always an object (clients index into it without checking);
 * v1.0 keeps the dead networks' keys as null because clients read them unchecked.
 */
export function countObject(counts: StoredCounts, version: ApiVersion) {
  // Exactly the interface's five integers, never og_object: PHP clients break on an object that comes and goes (README).
  const facebook = counts.Facebook ? engagementOf(counts.Facebook) : FACEBOOK_NOT_REPORTED;
  if (version === "1.1") return { Pinterest: counts.Pinterest, Facebook: facebook };
  return {
    StumbleUpon: null,
    Pinterest: counts.Pinterest,
    LinkedIn: null,
    Facebook: facebook,
    GooglePlusOne: null,
  };
}
