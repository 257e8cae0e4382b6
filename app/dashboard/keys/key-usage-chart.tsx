"use client";

import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from "recharts";
import { AXIS_COLOR, CURSOR_FILL, GRID_COLOR, TOOLTIP_STYLE } from "@/components/charts/chart-theme";
import { formatNumber } from "@/dashboard/client/format";
import { chartRows, type KeyUsage } from "@/dashboard/client/key-usage";
import { formatUsageDate } from "@/dashboard/client/usage";

/** Distinct in light and dark, and apart for the common kinds of colour blindness (Okabe–Ito). */
const COLORS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#999999"];
const compact = new Intl.NumberFormat("en-US", { notation: "compact" });

/** Stacked bars: each day's requests by key. Loaded only when there is something to draw, so Recharts stays out of the page's first load. */
export default function KeyUsageChart({ usage, describedBy }: { usage: KeyUsage; describedBy: string }) {
  const { rows, names } = chartRows(usage);
  return (
    <BarChart
      data={rows}
      responsive
      style={{ width: "100%", height: "16rem" }}
      margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
      title="Requests per key and day"
      aria-describedby={describedBy}
    >
      <CartesianGrid vertical={false} stroke={GRID_COLOR} />
      <XAxis dataKey="day" tickFormatter={(day: string) => formatUsageDate(day, "short")} minTickGap={16} tick={{ fontSize: 12, fill: AXIS_COLOR }} tickLine={false} />
      <YAxis tickFormatter={(value: number) => compact.format(value)} allowDecimals={false} width={44} tick={{ fontSize: 12, fill: AXIS_COLOR }} tickLine={false} axisLine={false} />
      <Tooltip labelFormatter={(day) => formatUsageDate(String(day), "long")} formatter={(value) => formatNumber(Number(value))} cursor={{ fill: CURSOR_FILL }} contentStyle={TOOLTIP_STYLE} />
      <Legend wrapperStyle={{ fontSize: 12 }} itemSorter={null} formatter={(value) => <span className="text-slate-700">{value}</span>} />
      {names.map((name, i) => (
        <Bar key={`k${i}`} dataKey={`k${i}`} name={name} stackId="keys" fill={COLORS[i % COLORS.length]} maxBarSize={32} isAnimationActive={false} />
      ))}
    </BarChart>
  );
}
