import { parseCountUrl } from "../../lib/urls/count-url.ts";
import type { AccountContext } from "../../lib/store/accounts.ts";
import type { HistoryPoint } from "../../lib/store/history.ts";
import type { ApiDeps } from "../api-deps.ts";
import { ApiError, apiErrors } from "../http/errors.ts";

const DAY = 86_400_000;
const MAX_DAYS = 400;

export type Interval = "hour" | "day";

const noHistory = () =>
  new ApiError("not_found", 404, "No history for this URL on this account: history is served for URLs the account tracks or has queried.");

/** The UTC days `from` to `to` (both included), as a time range; the defaults end today and start 30 days before. */
export function dayRange(now: number, from: string | undefined, to: string | undefined): { from: number; to: number } {
  const end = to ? Date.parse(`${to}T00:00:00Z`) + DAY : Math.floor(now / DAY) * DAY + DAY;
  const start = from ? Date.parse(`${from}T00:00:00Z`) : end - 31 * DAY;
  if (start >= end) throw new ApiError("invalid_parameter", 400, "from must be on or before to.");
  if (end - start > MAX_DAYS * DAY) throw new ApiError("invalid_parameter", 400, `A history range spans at most ${MAX_DAYS} days.`);
  return { from: start, to: end };
}

/** The last point of each UTC day. */
export function dailyPoints(points: readonly HistoryPoint[]): HistoryPoint[] {
  const byDay = new Map<number, HistoryPoint>();
  for (const point of points) byDay.set(Math.floor(point.at / DAY), point);
  return [...byDay.values()];
}

/**
 * A URL's count history as one account may read it: only for URLs it tracks or has queried (any other is
 * 404, so no account mines what others asked about), hourly or the last point of each day.
 */
export async function readHistory(
  deps: Pick<ApiDeps, "store">,
  account: AccountContext,
  input: string,
  range: { from: number; to: number },
  interval: Interval,
): Promise<{ url: string; points: HistoryPoint[] }> {
  const parsed = parseCountUrl(input);
  if (!parsed.ok) throw apiErrors.invalidUrl(parsed.reason);
  const { history, tracked } = deps.store;
  const id = await history.idOf(parsed.normalized);
  if (id === null) throw noHistory();
  const allowed = (await tracked.get(account.id, id)) !== null || (await history.hasQueried(account.id, id));
  if (!allowed) throw noHistory();
  const points = await history.points(id, range.from, range.to);
  return { url: parsed.normalized, points: interval === "day" ? dailyPoints(points) : points };
}
