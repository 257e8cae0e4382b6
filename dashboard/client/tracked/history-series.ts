import { rangeDays } from "../history-range.ts";
import type { NetworkId } from "../../../lib/counts/all-networks.ts";
import { headlineCount } from "./networks.ts";
import type { HistoryAnswer } from "./types.ts";

export interface SeriesPoint {
  /** Epoch milliseconds. */
  t: number;
  /** Null where the network did not report: a gap in the line, never a drop to 0. */
  value: number | null;
  /** A value between gaps: a line needs two points, so it is drawn as a dot. */
  isolated: boolean;
}

/** One network's line through a URL's history: its headline number at each point. */
export function networkSeries(points: HistoryAnswer["points"], network: NetworkId): SeriesPoint[] {
  const values = points.map((point) => headlineCount(point.networks, network));
  return points.map((point, i) => ({
    t: Date.parse(point.t),
    value: values[i]!,
    isolated: values[i] !== null && (values[i - 1] ?? null) === null && (values[i + 1] ?? null) === null,
  }));
}

export const hasValues = (series: readonly SeriesPoint[]) => series.some((point) => point.value !== null);

const DAY = 86_400_000;

/** The time axis of a range: from the start of its first UTC day to the end of today, as the server reads it. */
export function rangeDomain(range: number, now: number): [number, number] {
  const { from, to } = rangeDays(range, now);
  return [Date.parse(`${from}T00:00:00Z`), Date.parse(`${to}T00:00:00Z`) + DAY];
}

/** The starts of a range's days (UTC midnights) for the time axis: every day, or every few days, at most `most` of them. */
export function dayTicks([from, to]: [number, number], most = 8): number[] {
  const days = Math.round((to - from) / DAY);
  const step = Math.max(1, Math.ceil(days / most));
  const ticks: number[] = [];
  for (let day = 0; day < days; day += step) ticks.push(from + day * DAY);
  return ticks;
}
