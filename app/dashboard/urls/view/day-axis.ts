import { AXIS_COLOR } from "@/components/charts/chart-theme";
import { dayTicks } from "@/dashboard/client/tracked/history-series";

// Ticks are UTC days: shown in UTC, or a reader west of Greenwich would see each a day early.
const dayTick = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric", timeZone: "UTC" });

/** The time axis the URL view's charts share, so their days line up one above the other. */
export function dayAxisProps(domain: [number, number]) {
  return {
    dataKey: "t",
    type: "number",
    scale: "time",
    domain,
    ticks: dayTicks(domain),
    tickFormatter: (t: number) => dayTick.format(t),
    minTickGap: 24,
    // Every nth day where not all fit (a half-width chart, a phone): evenly spaced, not a tick here and there.
    interval: "equidistantPreserveStart",
    tick: { fontSize: 12, fill: AXIS_COLOR },
    tickLine: false,
  } as const;
}
