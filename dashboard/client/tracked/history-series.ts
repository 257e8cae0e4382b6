import { rangeDays } from "../history-range.ts";
import type { NetworkId } from "../../../lib/counts/all-networks.ts";
import { changeOfHeadlines, totalOfHeadlines, type Headlines } from "../../../lib/history/headline-sums.ts";
import { formatNumber } from "../format.ts";
import { formatChange } from "./change.ts";
import { headlineCount } from "./networks.ts";
import type { HistoryAnswer } from "./types.ts";

const DAY = 86_400_000;

export interface SeriesPoint {
  /** Epoch milliseconds. */
  t: number;
  /** Null where the network did not report: a gap in the line, never a drop to 0. */
  value: number | null;
  /** A value between gaps: a line needs two points, so it is drawn as a dot. */
  isolated: boolean;
}

/** A line through the points: null values are gaps, and a value between two gaps is marked isolated. */
function seriesOf(points: HistoryAnswer["points"], values: (number | null)[]): SeriesPoint[] {
  return points.map((point, i) => ({
    t: Date.parse(point.t),
    value: values[i]!,
    isolated: values[i] !== null && (values[i - 1] ?? null) === null && (values[i + 1] ?? null) === null,
  }));
}

/** One network's line through a URL's history: its headline number at each point. */
export const networkSeries = (points: HistoryAnswer["points"], network: NetworkId): SeriesPoint[] =>
  seriesOf(points, points.map((point) => headlineCount(point.networks, network)));

/** A point's headline numbers of these networks: those it reported. */
function headlinesAt(point: HistoryAnswer["points"][number], networks: readonly NetworkId[]): Headlines {
  const numbers: Headlines = {};
  for (const id of networks) {
    const value = headlineCount(point.networks, id);
    if (value !== null) numbers[id] = value;
  }
  return numbers;
}

/** The Total line: the networks' headline numbers added up at each point, as the API's `total` is. */
export const totalSeries = (points: HistoryAnswer["points"], networks: readonly NetworkId[]): SeriesPoint[] =>
  seriesOf(points, points.map((point) => totalOfHeadlines(headlinesAt(point, networks))));

export interface DayChange {
  /** The UTC day's start, epoch milliseconds. */
  t: number;
  /** Null where the day before has no point to compare with. */
  change: number | null;
}

/**
 * How much the total grew on each UTC day with a point: its last point against the day before's last point,
 * over the networks known at both (as the API's `change_7d` compares), so a network missing one day is no drop.
 */
export function dailyChanges(points: HistoryAnswer["points"], networks: readonly NetworkId[]): DayChange[] {
  const lastOfDay = new Map<number, Headlines>();
  for (const point of points) lastOfDay.set(Math.floor(Date.parse(point.t) / DAY) * DAY, headlinesAt(point, networks));
  return [...lastOfDay].map(([day, now]) => {
    const before = lastOfDay.get(day - DAY);
    return { t: day, change: before ? changeOfHeadlines(before, now) : null };
  });
}

export const hasValues = (series: readonly SeriesPoint[]) => series.some((point) => point.value !== null);

/** What a line shows, in words (its chart's description): from where to where, over how many points; `silent` when it has none. */
export function lineCaption(series: readonly SeriesPoint[], silent: string): string {
  const known = series.flatMap((point) => (point.value === null ? [] : [point.value]));
  if (known.length === 0) return silent;
  if (known.length === 1) return `${formatNumber(known[0]!)}: one point so far.`;
  const gaps = known.length < series.length ? "; gaps where it did not report." : ".";
  return `${formatNumber(known[0]!)} to ${formatNumber(known.at(-1)!)} over ${formatNumber(known.length)} points${gaps}`;
}

/** What the daily-change bars show, in words. */
export function changeCaption(changes: readonly DayChange[]): string {
  const known = changes.flatMap((day) => (day.change === null ? [] : [day.change]));
  if (known.length === 0) return "No day has the day before it to compare with yet: no bars.";
  const sum = known.reduce((total, change) => total + change, 0);
  return `${formatChange(sum).text} in all over the ${formatNumber(known.length)} ${known.length === 1 ? "day" : "days"} with the day before to compare.`;
}


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
