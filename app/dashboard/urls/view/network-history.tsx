"use client";

import { useId, useMemo } from "react";
import { useNow } from "@/dashboard/client/hooks/use-now";
import { hasValues, lineCaption, networkSeries, rangeDomain } from "@/dashboard/client/tracked/history-series";
import type { HeadlineNetwork } from "@/dashboard/client/tracked/networks";
import type { HistoryAnswer } from "@/dashboard/client/tracked/types";
import type { UrlView } from "@/dashboard/client/tracked/url-view";
import { marksFor, type AlertMark } from "@/dashboard/client/alerts/marks";
import { AlertMarkList } from "./alert-mark-list";
import { NETWORK_COLORS } from "./chart-colors";
import { HistoryChart } from "./charts";

/** One network's headline number over the range, as a line. */
export function NetworkHistory({
  points,
  network,
  view,
  marks,
}: {
  points: HistoryAnswer["points"];
  network: HeadlineNetwork;
  view: UrlView;
  marks: readonly AlertMark[];
}) {
  const series = useMemo(() => networkSeries(points, network.key), [points, network.key]);
  const captionId = useId();
  const now = useNow();
  const domain = useMemo(() => (now === null ? null : rangeDomain(view.range, now)), [view.range, now]);
  const shown = useMemo(() => (domain === null ? [] : marksFor(marks, network.key, domain)), [marks, network.key, domain]);
  const title = `${network.label} ${network.measure}, ${view.interval === "hour" ? "hourly" : "daily"}, last ${view.range} days`;
  return (
    <figure data-testid={`history-${network.key}`} className="min-w-0">
      <h3 className="text-sm font-semibold">
        {network.label} <span className="font-normal text-slate-600">({network.measure})</span>
      </h3>
      <figcaption id={captionId} className="mb-2 text-xs text-slate-600">
        {lineCaption(series, `${network.label} did not report in this range: nothing to draw (not a zero).`)}
      </figcaption>
      {hasValues(series) && domain !== null && (
        <HistoryChart
          series={series}
          domain={domain}
          interval={view.interval}
          color={NETWORK_COLORS[network.key]}
          name={network.label}
          title={title}
          describedBy={captionId}
          marks={shown}
        />
      )}
      <AlertMarkList marks={shown} />
    </figure>
  );
}
