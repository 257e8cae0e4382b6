/** Formatting shared by the dashboard's pages: numbers, quota, durations, counts. Pure, safe in the browser. */

// A fixed locale: the server renders first and the browser hydrates the same text, so both must agree.
const numberFormat = new Intl.NumberFormat("en-US");

export function formatNumber(value: number): string {
  return numberFormat.format(value);
}

/** A network's count: `null` means the network did not report, which is not the same as a real 0. */
export function formatCount(value: number | null): string {
  return value === null ? "not reported" : formatNumber(value);
}

/** The share of the quota used, 0 to 1; an allocation of 0 leaves nothing to use, so it counts as used up. */
export function quotaRatio(used: number, allocated: number): number {
  if (allocated <= 0) return 1;
  return Math.min(Math.max(used / allocated, 0), 1);
}

/** Rounded down, so "100%" only ever means used up, and a little use is never shown as "0%". */
export function formatPercent(ratio: number): string {
  if (ratio > 0 && ratio < 0.01) return "<1%";
  return `${Math.floor(ratio * 100)}%`;
}

const QUOTA_WARNING_RATIO = 0.9;

export type QuotaLevel = "ok" | "warning" | "exhausted";

export function quotaLevel(used: number, allocated: number): QuotaLevel {
  if (used >= allocated) return "exhausted";
  return quotaRatio(used, allocated) >= QUOTA_WARNING_RATIO ? "warning" : "ok";
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "3 h 12 min", "45 min", "2 d 3 h", "less than a minute": the two largest units, rounded down. */
export function formatDuration(ms: number): string {
  if (ms < MINUTE) return "less than a minute";
  const days = Math.floor(ms / DAY);
  const hours = Math.floor((ms % DAY) / HOUR);
  const minutes = Math.floor((ms % HOUR) / MINUTE);
  if (days > 0) return hours > 0 ? `${days} d ${hours} h` : `${days} d`;
  if (hours > 0) return minutes > 0 ? `${hours} h ${minutes} min` : `${hours} h`;
  return `${minutes} min`;
}

/** "in 3 h 12 min", or "now" once the moment has passed. */
export function formatTimeUntil(at: number, now: number): string {
  return at <= now ? "now" : `in ${formatDuration(at - now)}`;
}

/** "just now", "5 min ago", "3 h ago", "2 days ago": one unit is enough for when something last happened. */
export function formatTimeAgo(at: number, now: number): string {
  const ms = now - at;
  if (ms < MINUTE) return "just now";
  if (ms < HOUR) return `${Math.floor(ms / MINUTE)} min ago`;
  if (ms < DAY) return `${Math.floor(ms / HOUR)} h ago`;
  const days = Math.floor(ms / DAY);
  return days === 1 ? "1 day ago" : `${days} days ago`;
}

/** A moment as the reader's clock shows it, e.g. "Sat 01:00"; the locale and zone default to the browser's. */
export function formatClockTime(at: number, options: { locale?: string; timeZone?: string } = {}): string {
  return new Intl.DateTimeFormat(options.locale, {
    weekday: "short",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: options.timeZone,
  }).format(at);
}

/** `X-Sharecount-Stale: Facebook=3600, Pinterest=60`: which networks were answered with a last known count, and its age. */
export function parseStaleHeader(header: string | null): { network: string; ageSeconds: number }[] {
  if (!header) return [];
  return header
    .split(",")
    .map((part) => part.trim().split("="))
    .filter((pair): pair is [string, string] => pair.length === 2 && pair[0] !== "" && /^\d+$/.test(pair[1] ?? ""))
    .map(([network, age]) => ({ network, ageSeconds: Number(age) }));
}
