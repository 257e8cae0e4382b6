"use client";

import { Bar, CartesianGrid, ComposedChart, Legend, Line, Tooltip, XAxis, YAxis } from "recharts";
import { AXIS_COLOR, CURSOR_FILL, GRID_COLOR, TOOLTIP_STYLE } from "@/components/charts/chart-theme";
import { formatNumber } from "@/dashboard/client/format";
import { formatUsageDate, REFUSAL_LABELS, REFUSAL_REASONS, requests, type UsageDay } from "@/dashboard/client/usage";
import { QUOTA_COLOR, REFUSAL_COLORS, SERVED_COLOR } from "./colors";

const compact = new Intl.NumberFormat("en-US", { notation: "compact" });
/** A stacked segment's minimum height: Recharts hands it the stack's top, so its own value is read from the day. */
const visibleIfAny = (usage: UsageDay[], value: (day: UsageDay) => number) => (_top: unknown, index: number) => (usage[index] && value(usage[index]) > 0 ? 2 : 0);

/**
 * Requests per day as stacked bars, served at the bottom and the refused ones on top by reason, and the
 * day's quota as a dashed step line on the same scale (so the gap is the headroom). `fitToQueries` scales to
 * the busiest day instead, for when the bars are too small to see under the quota (the line then runs off
 * the top). Loaded only by the Usage page, so Recharts stays out of every other page's JavaScript.
 */
export default function UsageChart({
  usage,
  title,
  describedBy,
  fitToQueries,
}: {
  usage: UsageDay[];
  title: string;
  describedBy: string;
  fitToQueries: boolean;
}) {
  const peak = Math.max(1, ...usage.map(requests));
  return (
    <ComposedChart
      data={usage}
      responsive
      style={{ width: "100%", height: "18rem" }}
      margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
      // Named by the svg's <title>, described by the visible summary; the table below has every number.
      title={title}
      aria-describedby={describedBy}
    >
      <CartesianGrid vertical={false} stroke={GRID_COLOR} />
      <XAxis
        dataKey="date"
        tickFormatter={(date: string) => formatUsageDate(date, "short")}
        minTickGap={16}
        tick={{ fontSize: 12, fill: AXIS_COLOR }}
        tickLine={false}
      />
      <YAxis
        domain={fitToQueries ? [0, peak] : [0, "auto"]}
        allowDataOverflow={fitToQueries}
        tickFormatter={(value: number) => compact.format(value)}
        allowDecimals={false}
        width={44}
        tick={{ fontSize: 12, fill: AXIS_COLOR }}
        tickLine={false}
        axisLine={false}
      />
      <Tooltip
        labelFormatter={(date) => formatUsageDate(String(date), "long")}
        formatter={(value) => formatNumber(Number(value))}
        cursor={{ fill: CURSOR_FILL }}
        contentStyle={TOOLTIP_STYLE}
      />
      {/* In drawing order (not sorted by name), in text that reads on white whatever the series' colour. */}
      <Legend wrapperStyle={{ fontSize: 12 }} itemSorter={null} formatter={(value) => <span className="text-slate-700">{value}</span>} />
      {/* No animation: the numbers should be readable (and the screenshots true) the moment they appear. */}
      {/* A day with a few requests under a large quota still shows them; a stacked segment pushes the next up. */}
      <Bar
        dataKey="served"
        name="Served"
        stackId="requests"
        fill={SERVED_COLOR}
        maxBarSize={32}
        minPointSize={visibleIfAny(usage, (day) => day.served)}
        isAnimationActive={false}
      />
      {REFUSAL_REASONS.map((reason) => (
        <Bar
          key={reason}
          dataKey={(day: UsageDay) => day.refused[reason]}
          name={`Refused: ${REFUSAL_LABELS[reason].toLowerCase()}`}
          stackId="requests"
          fill={REFUSAL_COLORS[reason]}
          maxBarSize={32}
          minPointSize={visibleIfAny(usage, (day) => day.refused[reason])}
          isAnimationActive={false}
        />
      ))}
      <Line
        dataKey="quota"
        name="Daily quota"
        type="stepAfter"
        stroke={QUOTA_COLOR}
        strokeWidth={2}
        strokeDasharray="6 4"
        // A line needs two days; an account's first day gets a point instead.
        dot={usage.length === 1 ? { r: 4, fill: QUOTA_COLOR } : false}
        isAnimationActive={false}
      />
    </ComposedChart>
  );
}
