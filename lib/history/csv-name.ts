/** Enough for any file system (255 bytes) with room for the suffix and a browser's " (1)". */
const MAX_STEM = 100;

/** A part of the name: each run of characters other than letters, digits, `.` and `-` becomes one `_`. */
const safe = (text: string) =>
  text
    .replace(/[^A-Za-z0-9.-]+/g, "_")
    .replace(/^[_.]+|[_.]+$/g, "");

/** Percent-encoding decoded where it can be: `a%20b` reads as `a_b`, not `a_20b`. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * A URL's history CSV file name, from its host and path: `example.com_post-1_history.csv`, the root
 * `example.com_history.csv` (a query stays in, cleaned: `?p=12` names a post on many sites). Only ASCII letters,
 * digits, `.`, `-` and `_`, so the name needs no quoting in Content-Disposition, and at most 100 characters
 * before the suffix.
 */
export function historyCsvName(url: string, interval: "day" | "hour"): string {
  const parsed = new URL(url);
  const parts = [parsed.hostname, ...parsed.pathname.split("/"), parsed.search.slice(1)].map((part) => safe(decoded(part))).filter(Boolean);
  const stem = parts.join("_").slice(0, MAX_STEM).replace(/[_.-]+$/, "") || "url";
  return `${stem}_history${interval === "hour" ? "_hourly" : ""}.csv`;
}
