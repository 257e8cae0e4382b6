import type { NetworkId } from "../../lib/counts/all-networks.ts";
import { onlyNetworks, totalOf } from "../../lib/history/observed.ts";
import { firstObservedAt } from "../../lib/store/history.ts";
import type { ApiDeps } from "../api-deps.ts";
import { accessSince, dailyPoints } from "./read-history.ts";

const DAY = 86_400_000;
export const SPARKLINE_DAYS = 30;

/**
 * Each of the account's tracked URLs' total (over the networks it shows; null: all) on each of the last 30 UTC
 * days (the day's last point; null for a day without one, or before the account came to the URL), oldest first.
 */
export async function sparklines(
  deps: Pick<ApiDeps, "store">,
  accountId: string,
  rows: readonly { urlId: number; addedAt: number }[],
  now: number,
  networks: readonly NetworkId[] | null,
): Promise<Map<number, (number | null)[]>> {
  const end = Math.floor(now / DAY) * DAY + DAY;
  const start = end - SPARKLINE_DAYS * DAY;
  const urlIds = rows.map((row) => row.urlId);
  const [points, since] = await Promise.all([deps.store.history.pointsOfMany(urlIds, start, end), accessSince(deps, accountId, rows)]);
  const lines = new Map<number, (number | null)[]>();
  for (const id of urlIds) {
    const line: (number | null)[] = Array.from({ length: SPARKLINE_DAYS }, () => null);
    const own = (points.get(id) ?? []).filter((point) => firstObservedAt(point) >= (since.get(id) ?? Infinity));
    for (const point of dailyPoints(own)) line[Math.floor((point.at - start) / DAY)] = totalOf(onlyNetworks(point.values, networks));
    lines.set(id, line);
  }
  return lines;
}
