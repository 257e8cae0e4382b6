import type { FacebookCounts, StoredCounts } from "../../lib/counts/values.ts";

export type ApiVersion = "1.0" | "1.1";

const FACEBOOK_NOT_REPORTED = {
  total_count: null,
  comment_count: null,
  reaction_count: null,
  share_count: null,
  comment_plugin_count: null,
} as const;

/** Exactly the interface's five fields: typed clients (Go structs) decode the object strictly. */
function facebookObject(counts: FacebookCounts) {
  return {
    total_count: counts.total_count,
    comment_count: counts.comment_count,
    reaction_count: counts.reaction_count,
    share_count: counts.share_count,
    comment_plugin_count: counts.comment_plugin_count,
  };
}

/**
 * The wire count object. Facebook is always an object (clients index into it without checking);
 * v1.0 keeps the dead networks' keys as null because clients read them unchecked.
 */
export function countObject(counts: StoredCounts, version: ApiVersion) {
  const facebook = counts.Facebook ? facebookObject(counts.Facebook) : FACEBOOK_NOT_REPORTED;
  if (version === "1.1") return { Pinterest: counts.Pinterest, Facebook: facebook };
  return {
    StumbleUpon: null,
    Pinterest: counts.Pinterest,
    LinkedIn: null,
    Facebook: facebook,
    GooglePlusOne: null,
  };
}
