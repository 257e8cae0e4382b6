const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Standard Webhooks' schedule: the wait after attempt n is RETRY_DELAYS_MS[n - 1]; after the last, none. */
export const RETRY_DELAYS_MS = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR] as const;

export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** When attempt `attempts` + 1 is due after attempt `attempts` failed at `failedAt`; null after the last. */
export function nextAttemptAt(attempts: number, failedAt: number): number | null {
  const delay = RETRY_DELAYS_MS[attempts - 1];
  return delay === undefined ? null : failedAt + delay;
}
