"use client";

import { Bar, BarChart, CartesianGrid, Cell, ReferenceLine, Tooltip, XAxis, YAxis } from "recharts";
import { formatNumber } from "@/dashboard/client/format";
import { formatChange } from "@/dashboard/client/tracked/change";
import type { DayChange } from "@/dashboard/client/tracked/history-series";
import { AXIS_COLOR, GRID_COLOR, ZERO_COLOR, TOOLTIP_STYLE } from "@/components/charts/chart-theme";
import { FALL_COLOR, RISE_COLOR } from "./chart-colors";
import { dayAxisProps } from "./day-axis";

const DAY = 86_400_000;
// Daily points are UTC days: labelled in UTC, or a reader west of Greenwich would see each a day early.
const dayLabel = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeZone: "UTC" });

/**
 * The total's change on each day, as bars (green up, red down) under the Total line, on the same time axis.
 * Days without a day before to compare with have no bar. Loaded only by the URL page, with Recharts.
 */
export default function ChangeChart({
  changes,
  domain,
  title,
  describedBy,
  yAxisWidth,
}: {
  changes: DayChange[];
  domain: [number, number];
  title: string;
  describedBy: string;
  /** The Total line's, above: their time axes line up. */
  yAxisWidth: number;
}) {
  // Each bar in the middle of its day, so it stands between that day's tick and the next.
  const data = changes.flatMap((day) => (day.change === null ? [] : [{ t: day.t + DAY / 2, change: day.change }]));
  return (
    <BarChart
      data={data}
      responsive
      style={{ width: "100%", height: "8rem" }}
      margin={{ top: 8, right: 12, bottom: 0, left: 0 }}
      title={title}
      aria-describedby={describedBy}
    >
      <CartesianGrid vertical={false} stroke={GRID_COLOR} />
      <XAxis {...dayAxisProps(domain)} />
      <YAxis
        tickFormatter={(value: number) => formatNumber(value)}
        allowDecimals={false}
        width={yAxisWidth}
        tick={{ fontSize: 12, fill: AXIS_COLOR }}
        tickLine={false}
        axisLine={false}
      />
      <ReferenceLine y={0} stroke={ZERO_COLOR} />
      <Tooltip contentStyle={TOOLTIP_STYLE} labelFormatter={(t) => dayLabel.format(Number(t) - DAY / 2)} formatter={(value) => formatChange(Number(value)).text} />
      <Bar dataKey="change" name="Change" maxBarSize={24} isAnimationActive={false}>
        {data.map((day) => (
          <Cell key={day.t} fill={day.change < 0 ? FALL_COLOR : RISE_COLOR} />
        ))}
      </Bar>
    </BarChart>
  );
}
