import { addDays, quotaDay } from "../../lib/quota/day.ts";

/** The digest goes out on Mondays from this hour on, in the quota time zone. */
export const DIGEST_HOUR = 8;

const hours = new Map<string, Intl.DateTimeFormat>();
function hourIn(at: number, timeZone: string): number {
  let f = hours.get(timeZone);
  if (!f) hours.set(timeZone, (f = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", hourCycle: "h23" })));
  return Number(f.format(at));
}

/**
 * The week whose digest is due at `at`: the date of its Monday, from Monday 08:00 (quota time zone) on; null on
 * Monday before 08:00 (last week's went out a week ago).
 */
export function digestWeekDue(at: number, timeZone: string): string | null {
  const day = quotaDay(at, timeZone);
  const sinceMonday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
  if (sinceMonday === 0 && hourIn(at, timeZone) < DIGEST_HOUR) return null;
  return addDays(day, -sinceMonday);
}
