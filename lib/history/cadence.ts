import type { Env } from "../env.ts";

/**
 * How often a tracked URL is refreshed: by its age since it was first tracked (by any account). New pages
 * gather most of their shares in their first hours, so they are refreshed often at first and rarely later.
 */
export interface Cadence {
  /** Age under which the URL is refreshed every `youngEveryMs` (default 24 h, hourly). */
  youngForMs: number;
  youngEveryMs: number;
  /** Age under which it is refreshed every `middleEveryMs` (default 30 days, daily); weekly after. */
  middleForMs: number;
  middleEveryMs: number;
  oldEveryMs: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export const DEFAULT_CADENCE: Cadence = {
  youngForMs: DAY,
  youngEveryMs: HOUR,
  middleForMs: 30 * DAY,
  middleEveryMs: DAY,
  oldEveryMs: 7 * DAY,
};

/** The interval that applies at `now` to a URL first tracked at `firstTrackedAt`. */
export function refreshInterval(cadence: Cadence, firstTrackedAt: number, now: number): number {
  const age = now - firstTrackedAt;
  if (age < cadence.youngForMs) return cadence.youngEveryMs;
  if (age < cadence.middleForMs) return cadence.middleEveryMs;
  return cadence.oldEveryMs;
}

/** When a URL refreshed at `now` is due again. */
export function nextRefreshAt(cadence: Cadence, firstTrackedAt: number, now: number): number {
  return now + refreshInterval(cadence, firstTrackedAt, now);
}

/** The cadence the REFRESH_* settings configure. */
export function cadenceOf(env: Pick<Env, "REFRESH_YOUNG_HOURS" | "REFRESH_YOUNG_EVERY_MINUTES" | "REFRESH_MIDDLE_DAYS" | "REFRESH_MIDDLE_EVERY_HOURS" | "REFRESH_OLD_EVERY_HOURS">): Cadence {
  return {
    youngForMs: env.REFRESH_YOUNG_HOURS * HOUR,
    youngEveryMs: env.REFRESH_YOUNG_EVERY_MINUTES * 60_000,
    middleForMs: env.REFRESH_MIDDLE_DAYS * DAY,
    middleEveryMs: env.REFRESH_MIDDLE_EVERY_HOURS * HOUR,
    oldEveryMs: env.REFRESH_OLD_EVERY_HOURS * HOUR,
  };
}
