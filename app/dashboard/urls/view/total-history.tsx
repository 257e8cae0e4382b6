"use client";

import { useId, useMemo } from "react";
import { formatNumber } from "@/dashboard/client/format";
import { useNow } from "@/dashboard/client/hooks/use-now";
import { changeCaption, dailyChanges, hasValues, lineCaption, rangeDomain, totalSeries } from "@/dashboard/client/tracked/history-series";
import type { HeadlineNetwork } from "@/dashboard/client/tracked/networks";
import type { HistoryAnswer } from "@/dashboard/client/tracked/types";
import type { UrlView } from "@/dashboard/client/tracked/url-view";
import { marksFor, type AlertMark } from "@/dashboard/client/alerts/marks";
import { AlertMarkList } from "./alert-mark-list";
import { TOTAL_COLOR } from "./chart-colors";
import { ChangeChart, HistoryChart } from "./charts";

/**
 * Room for the widest tick of either chart: a 12 px digit is about 7 px wide, and a round tick above the largest
 * value may have one digit more (81,282 → 100,000).
 */
function axisWidth(values: (number | null)[]): number {
  const widest = Math.max(1, ...values.flatMap((value) => (value === null ? [] : [formatNumber(value).length])));
  return 8 + 7 * (widest + 1);
}

/** The networks shown, added up: the Total line, and under it each day's change as a bar. */
export function TotalHistory({
  points,
  networks,
  view,
  marks,
}: {
  points: HistoryAnswer["points"];
  networks: readonly HeadlineNetwork[];
  view: UrlView;
  marks: readonly AlertMark[];
}) {
  const ids = useMemo(() => networks.map((network) => network.key), [networks]);
  const series = useMemo(() => totalSeries(points, ids), [points, ids]);
  const changes = useMemo(() => dailyChanges(points, ids), [points, ids]);
  const yAxisWidth = useMemo(() => axisWidth([...series.map((point) => point.value), ...changes.map((day) => day.change)]), [series, changes]);
  const lineId = useId();
  const barsId = useId();
  const now = useNow();
  const range = `last ${view.range} days`;
  const domain = useMemo(() => (now === null ? null : rangeDomain(view.range, now)), [view.range, now]);
  const shown = useMemo(() => (domain === null ? [] : marksFor(marks, null, domain)), [marks, domain]);
  return (
    <figure data-testid="history-total" className="min-w-0 lg:col-span-2">
      <h3 className="text-sm font-semibold">
        Total <span className="font-normal text-slate-600">(the networks shown, added up)</span>
      </h3>
      <figcaption id={lineId} className="mb-2 text-xs text-slate-600">
        {lineCaption(series, "No network reported in this range: nothing to draw (not a zero).")}
      </figcaption>
      {hasValues(series) && domain !== null && (
        <HistoryChart
          series={series}
          domain={domain}
          interval={view.interval}
          color={TOTAL_COLOR}
          name="Total"
          title={`Total, ${view.interval === "hour" ? "hourly" : "daily"}, ${range}`}
          describedBy={lineId}
          yAxisWidth={yAxisWidth}
          marks={shown}
        />
      )}
      <AlertMarkList marks={shown} />
      <h4 className="mt-3 text-sm font-semibold">Daily change</h4>
      <p id={barsId} className="mb-2 text-xs text-slate-600" data-testid="daily-change-caption">
        {changeCaption(changes)}
      </p>
      {changes.some((day) => day.change !== null) && domain !== null && (
        <ChangeChart changes={changes} domain={domain} title={`Daily change of the total, ${range}`} describedBy={barsId} yAxisWidth={yAxisWidth} />
      )}
    </figure>
  );
}
