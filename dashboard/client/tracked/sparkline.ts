import { formatNumber } from "../format.ts";

/** A sparkline's drawing: runs of consecutive known values become lines; a day without a point breaks the line. */

export type SparkPoint = readonly [x: number, y: number];

export interface SparklineShape {
  /** Polylines of two or more points. */
  lines: SparkPoint[][];
  /** Known values with no known neighbour: a line of one point would not show, so they are dots. */
  dots: SparkPoint[];
}

const round = (n: number) => Math.round(n * 10) / 10;

/**
 * Lays `values` (oldest first) across `width` × `height`, `inset` away from the edges so strokes are not clipped.
 * The highest known value is at the top and the lowest at the bottom; a flat series runs through the middle.
 */
export function sparklineShape(values: readonly (number | null)[], width: number, height: number, inset = 1.5): SparklineShape {
  const known = values.filter((v): v is number => v !== null);
  const shape: SparklineShape = { lines: [], dots: [] };
  if (known.length === 0) return shape;
  const min = Math.min(...known);
  const max = Math.max(...known);
  const stepX = values.length > 1 ? (width - 2 * inset) / (values.length - 1) : 0;
  const y = (v: number) => (max === min ? height / 2 : inset + ((max - v) / (max - min)) * (height - 2 * inset));
  let run: SparkPoint[] = [];
  const close = () => {
    if (run.length === 1) shape.dots.push(run[0]!);
    else if (run.length > 1) shape.lines.push(run);
    run = [];
  };
  values.forEach((value, i) => {
    if (value === null) close();
    else run.push([round(values.length > 1 ? inset + i * stepX : width / 2), round(y(value))]);
  });
  close();
  return shape;
}

/** `points` of an SVG polyline. */
export const polylinePoints = (line: readonly SparkPoint[]) => line.map(([x, y]) => `${x},${y}`).join(" ");

/** What the line shows, for screen readers: its first and last known day. */
export function sparklineSummary(values: readonly (number | null)[]): string {
  const known = values.filter((v): v is number => v !== null);
  if (known.length === 0) return `No totals in the last ${values.length} days`;
  if (known.length === 1) return `One total in the last ${values.length} days: ${formatNumber(known[0]!)}`;
  return `Daily totals over the last ${values.length} days, from ${formatNumber(known[0]!)} to ${formatNumber(known.at(-1)!)}`;
}
