/** The quota day: a calendar date in QUOTA_TIMEZONE, and the instant the next one starts. */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    formatters.set(timeZone, f);
  }
  return f;
}

/** `YYYY-MM-DD` of the instant in the time zone (en-CA formats dates that way). */
export function quotaDay(at: number, timeZone: string): string {
  return formatter(timeZone).format(at);
}

/** The day after `day` (both `YYYY-MM-DD`), calendar arithmetic in UTC so no DST shift applies. */
export function nextDay(day: string): string {
  return addDays(day, 1);
}

export function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The first instant at which `quotaDay` returns a later day than it does for `at`. */
export function nextResetAt(at: number, timeZone: string): number {
  const today = quotaDay(at, timeZone);
  // Local midnight is within ±14 h of the next day's midnight UTC; offsets vary (DST, 30/45-minute zones),
  // so bisect that window to the millisecond rather than compute the offset.
  const tomorrow = nextDay(today);
  const utcMidnight = Date.parse(`${tomorrow}T00:00:00Z`);
  let lo = utcMidnight - 15 * 3600_000;
  let hi = utcMidnight + 15 * 3600_000;
  if (lo <= at) lo = at;
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (quotaDay(mid, timeZone) === today) lo = mid;
    else hi = mid;
  }
  return hi;
}
