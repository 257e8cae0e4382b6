"use client";

import { Bar, CartesianGrid, ComposedChart, Legend, Line, Tooltip, XAxis, YAxis } from "recharts";
import { formatNumber } from "@/dashboard/client/format";
import { formatUsageDate, type UsageDay } from "@/dashboard/client/usage";

// SVG presentation attributes take plain colours, not CSS variables: brand-600 and amber-600 as hex.
const QUERIES_COLOR = "#0060c1";
const QUOTA_COLOR = "#d97706";

const compact = new Intl.NumberFormat("en-US", { notation: "compact" });
const visibleIfAny = (value: number | undefined | null) => (value ? 2 : 0);

/**
 * Queries per day as bars, the day's quota as a dashed step line on the same scale (so the gap is the
 * headroom). `fitToQueries` scales to the busiest day instead, for when the bars are too small to see
 * under the quota (the line then runs off the top). Loaded only by the Usage page, so Recharts stays out
 * of every other page's JavaScript.
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
  const peak = Math.max(1, ...usage.map((day) => day.queries));
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
      <CartesianGrid vertical={false} stroke="#e2e8f0" />
      <XAxis
        dataKey="date"
        tickFormatter={(date: string) => formatUsageDate(date, "short")}
        minTickGap={16}
        tick={{ fontSize: 12, fill: "#475569" }}
        tickLine={false}
      />
      <YAxis
        domain={fitToQueries ? [0, peak] : [0, "auto"]}
        allowDataOverflow={fitToQueries}
        tickFormatter={(value: number) => compact.format(value)}
        allowDecimals={false}
        width={44}
        tick={{ fontSize: 12, fill: "#475569" }}
        tickLine={false}
        axisLine={false}
      />
      <Tooltip
        labelFormatter={(date) => formatUsageDate(String(date), "long")}
        formatter={(value) => formatNumber(Number(value))}
        cursor={{ fill: "#f1f5f9" }}
      />
      <Legend wrapperStyle={{ fontSize: 12 }} />
      {/* No animation: the numbers should be readable (and the screenshots true) the moment they appear. */}
      {/* A day with a few queries under a large quota still shows a bar; a day with none shows none. */}
      <Bar dataKey="queries" name="Queries" fill={QUERIES_COLOR} radius={[2, 2, 0, 0]} maxBarSize={32} minPointSize={visibleIfAny} isAnimationActive={false} />
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
