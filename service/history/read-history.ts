import { parseCountUrl } from "../../lib/urls/count-url.ts";
import type { AccountContext } from "../../lib/store/accounts.ts";
import { firstObservedAt, type HistoryPoint } from "../../lib/store/history.ts";
import type { ApiDeps } from "../api-deps.ts";
import { ApiError, apiErrors } from "../http/errors.ts";
import { assertWhitelisted } from "../accounts/whitelist.ts";

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
 * 404, so no account mines what others asked about), within its enforced whitelist, and only the points
 * observed since it first queried or tracked the URL (what others observed before is theirs); hourly or the
 * last point of each day.
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
  assertWhitelisted(account, parsed.url.hostname);
  const { history } = deps.store;
  const id = await history.idOf(parsed.normalized);
  if (id === null) throw noHistory();
  const since = (await accessSince(deps, account.id, [{ urlId: id }])).get(id);
  if (since === undefined) throw noHistory();
  // A point whose hour merges an earlier observation (another account's) is not this account's either.
  const points = (await history.points(id, Math.max(range.from, since), range.to)).filter((point) => firstObservedAt(point) >= since);
  return { url: parsed.normalized, points: interval === "day" ? dailyPoints(points) : points };
}

/**
 * Since when the account may read each URL's history: when it first queried or tracked it (a URL tracked before
 * that was recorded: since it was added). URLs it never came to are missing.
 */
export async function accessSince(
  deps: Pick<ApiDeps, "store">,
  accountId: string,
  urls: readonly { urlId: number; addedAt?: number }[],
): Promise<Map<number, number>> {
  const queried = await deps.store.history.accessSince(accountId, urls.map((url) => url.urlId));
  const since = new Map<number, number>();
  for (const { urlId, addedAt } of urls) {
    const tracked = addedAt ?? (await deps.store.tracked.get(accountId, urlId))?.addedAt;
    const first = Math.min(queried.get(urlId) ?? Infinity, tracked ?? Infinity);
    if (first !== Infinity) since.set(urlId, first);
  }
  return since;
}
