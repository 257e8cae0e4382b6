import { parseCountUrl } from "../../lib/urls/count-url.ts";
import { deriveCounts } from "../../service/sandbox/derive-counts.ts";

/** The sandbox's deterministic counts for a URL as submitted (the sandbox is asked for its normalized form). */
function sandboxCounts(url: string) {
  const parsed = parseCountUrl(url);
  if (!parsed.ok) throw new Error(`not a countable URL: ${url}`);
  return deriveCounts(parsed.normalized);
}

/** The Facebook object the API must answer for a URL (the interface's five fields), from the sandbox's own counts. */
export function expectedFacebook(url: string) {
  const { facebook } = sandboxCounts(url);
  return {
    total_count: facebook.reaction_count + facebook.comment_count + facebook.share_count + facebook.comment_plugin_count,
    comment_count: facebook.comment_count,
    reaction_count: facebook.reaction_count,
    share_count: facebook.share_count,
    comment_plugin_count: facebook.comment_plugin_count,
  };
}

export function expectedPinterest(url: string): number {
  return sandboxCounts(url).pinterest;
}
