import type { NetworkId } from "../../lib/counts/all-networks.ts";
import { onlyNetworks, totalOf } from "../../lib/history/observed.ts";
import type { HistoryStore } from "../../lib/store/history.ts";
import { dailyPoints } from "./read-history.ts";

const DAY = 86_400_000;
export const SPARKLINE_DAYS = 30;

/**
 * Each URL's total (over the networks the account shows; null: all) on each of the last 30 UTC days (the
 * day's last point; null for a day without one), oldest first.
 */
export async function sparklines(
  history: HistoryStore,
  urlIds: readonly number[],
  now: number,
  networks: readonly NetworkId[] | null,
): Promise<Map<number, (number | null)[]>> {
  const end = Math.floor(now / DAY) * DAY + DAY;
  const start = end - SPARKLINE_DAYS * DAY;
  const points = await history.pointsOfMany(urlIds, start, end);
  const lines = new Map<number, (number | null)[]>();
  for (const id of urlIds) {
    const line: (number | null)[] = Array.from({ length: SPARKLINE_DAYS }, () => null);
    for (const point of dailyPoints(points.get(id) ?? [])) line[Math.floor((point.at - start) / DAY)] = totalOf(onlyNetworks(point.values, networks));
    lines.set(id, line);
  }
  return lines;
}
