import { REASON_MEANINGS, type NetworkReason } from "../../../lib/v2/reasons.ts";

/** Each reason a network gives for not reporting, as the dashboard names it. */
export const REASON_LABELS: Record<NetworkReason, string> = {
  budget: "Budget exhausted",
  throttled: "Throttled",
  upstream_error: "Upstream error",
  credentials_rejected: "Credentials rejected",
  not_configured: "Not configured",
  pending: "Not counted yet",
};

/** What the reason means, as a sentence (the API's words, lib/v2/reasons.ts). */
export const reasonMeaning = (reason: NetworkReason) => `${REASON_MEANINGS[reason][0]!.toUpperCase()}${REASON_MEANINGS[reason].slice(1)}.`;

interface Clock {
  /** The reader's locale and time zone: the browser's unless given (tests give them). */
  locale?: string;
  timeZone?: string;
}

/**
 * "Budget exhausted — tried again at 14:05": the reason, and when the network is asked again by the reader's
 * clock (with the weekday when that is not today; "shortly" once the moment has passed, as a late refresh does).
 */
export function reasonPhrase(reason: NetworkReason, retryAt: string | null, now: number, clock: Clock = {}): string {
  const label = REASON_LABELS[reason];
  if (retryAt === null) return label;
  const at = Date.parse(retryAt);
  if (at <= now) return `${label} — tried again shortly`;
  const day = new Intl.DateTimeFormat(clock.locale, { dateStyle: "short", timeZone: clock.timeZone });
  const time = new Intl.DateTimeFormat(clock.locale, {
    ...(day.format(at) === day.format(now) ? {} : { weekday: "short" }),
    hour: "2-digit",
    minute: "2-digit",
    timeZone: clock.timeZone,
  });
  return `${label} — tried again at ${time.format(at)}`;
}
