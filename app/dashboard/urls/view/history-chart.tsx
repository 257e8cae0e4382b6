"use client";

import { CartesianGrid, Line, LineChart, ReferenceLine, Tooltip, XAxis, YAxis } from "recharts";
import { describeMark, type AlertMark } from "@/dashboard/client/alerts/marks";
import { formatNumber } from "@/dashboard/client/format";
import type { SeriesPoint } from "@/dashboard/client/tracked/history-series";
import type { HistoryInterval } from "@/dashboard/client/tracked/url-view";
import { AXIS_COLOR, GRID_COLOR, TOOLTIP_STYLE } from "@/components/charts/chart-theme";
import { MARK_COLORS } from "./chart-colors";
import { dayAxisProps } from "./day-axis";

// Daily points are UTC days: labelled in UTC, or a reader west of Greenwich would see each a day early.
const dayLabel = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeZone: "UTC" });
const hourLabel = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/**
 * One network's count over time as a line. Points where the network did not report are gaps (never drawn as 0);
 * a value between two gaps is a dot. Loaded only by the URL page, so Recharts stays out of every other page.
 */
export default function HistoryChart({
  series,
  domain,
  interval,
  color,
  name,
  title,
  describedBy,
  yAxisWidth = "auto",
  marks = [],
}: {
  series: SeriesPoint[];
  /** The whole range, so 7 and 365 days look like what they are even where there are no points yet. */
  domain: [number, number];
  interval: HistoryInterval;
  color: string;
  name: string;
  title: string;
  describedBy: string;
  /** Fixed where another chart stacks under this one, so their time axes line up. */
  yAxisWidth?: number | "auto";
  /** Spikes and milestones: a dashed line each, with a flag whose tooltip says what happened (listed under the chart too). */
  marks?: readonly AlertMark[];
}) {
  const known = series.flatMap((point) => (point.value === null ? [] : [point.value]));
  const low = Math.min(...known);
  const high = Math.max(...known);
  // A flat line would get an axis of zero height: centre it in a little room.
  const yDomain: [number, number] | ["auto", "auto"] = low === high ? [Math.max(0, low - 1), high + 1] : ["auto", "auto"];
  const label = interval === "hour" ? hourLabel : dayLabel;
  return (
    <LineChart
      data={series}
      responsive
      style={{ width: "100%", height: "14rem" }}
      margin={{ top: 8, right: 12, bottom: 0, left: 0 }}
      title={title}
      aria-describedby={describedBy}
    >
      <CartesianGrid vertical={false} stroke={GRID_COLOR} />
      <XAxis {...dayAxisProps(domain)} />
      {/* Exact numbers, as wide as they need: compact ones ("3.5K") repeat on a narrow range. */}
      <YAxis
        domain={yDomain}
        tickFormatter={(value: number) => formatNumber(value)}
        allowDecimals={false}
        width={yAxisWidth}
        tick={{ fontSize: 12, fill: AXIS_COLOR }}
        tickLine={false}
        axisLine={false}
      />
      <Tooltip
        contentStyle={TOOLTIP_STYLE}
        labelFormatter={(t) => label.format(Number(t))}
        formatter={(value) => (value === null || value === undefined ? "not reported" : formatNumber(Number(value)))}
      />
      {marks.map((mark) => (
        <ReferenceLine
          key={mark.id}
          x={mark.at}
          stroke={MARK_COLORS[mark.kind]}
          strokeDasharray="4 3"
          label={(props: { viewBox?: { x?: number; y?: number } }) => <MarkFlag mark={mark} x={props.viewBox?.x ?? 0} y={props.viewBox?.y ?? 0} />}
        />
      ))}
      {/* No animation: the numbers should be readable (and the screenshots true) the moment they appear. */}
      <Line
        dataKey="value"
        name={name}
        type="linear"
        stroke={color}
        strokeWidth={2}
        connectNulls={false}
        dot={(props) => (props.payload?.isolated && props.cx !== undefined && props.cy !== undefined ? <circle cx={props.cx} cy={props.cy} r={3} fill={color} /> : null)}
        isAnimationActive={false}
      />
    </LineChart>
  );
}

/** The flag near the top of a mark's line (a milestone's lower, so one beside a spike stays in view); its <title> is the tooltip. */
function MarkFlag({ mark, x, y }: { mark: AlertMark; x: number; y: number }) {
  return (
    <g data-testid={`chart-mark-${mark.kind}`}>
      <title>{`${mark.kind === "spike" ? "Spike" : "Milestone"} ${describeMark(mark)}`}</title>
      <circle cx={x} cy={y + (mark.kind === "spike" ? 5 : 17)} r={5} fill={MARK_COLORS[mark.kind]} stroke="var(--color-white)" strokeWidth={1.5} />
    </g>
  );
}
