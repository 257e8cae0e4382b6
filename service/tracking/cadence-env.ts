import type { Cadence } from "../../lib/history/cadence.ts";
import type { Env } from "../../lib/env.ts";

/** How often tracked URLs are refreshed at each age, from the REFRESH_* settings. */
export function cadenceOf(env: Env): Cadence {
  const HOUR = 3_600_000;
  return {
    youngForMs: env.REFRESH_YOUNG_HOURS * HOUR,
    youngEveryMs: env.REFRESH_YOUNG_EVERY_MINUTES * 60_000,
    middleForMs: env.REFRESH_MIDDLE_DAYS * 24 * HOUR,
    middleEveryMs: env.REFRESH_MIDDLE_EVERY_HOURS * HOUR,
    oldEveryMs: env.REFRESH_OLD_EVERY_HOURS * HOUR,
  };
}
