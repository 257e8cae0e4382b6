"use client";

import dynamic from "next/dynamic";
import { useId, useMemo } from "react";
import { Card } from "@/components/ui/card";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { HISTORY_RANGES } from "@/dashboard/client/history-range";
import { formatNumber } from "@/dashboard/client/format";
import { useHistory } from "@/dashboard/client/hooks/use-tracked";
import { useNow } from "@/dashboard/client/hooks/use-now";
import { hasValues, networkSeries, rangeDomain } from "@/dashboard/client/tracked/history-series";
import type { NetworkId } from "@/lib/counts/all-networks";
import type { HeadlineNetwork } from "@/dashboard/client/tracked/networks";
import type { HistoryAnswer } from "@/dashboard/client/tracked/types";
import { historyCsvPath, HISTORY_INTERVALS, type UrlView } from "@/dashboard/client/tracked/url-view";

// Recharts is large: load it in the browser only, and only on this page (not the list's, not the overview's).
const HistoryChart = dynamic(() => import("./history-chart"), {
  ssr: false,
  loading: () => <LoadingState label="Loading chart…" className="h-56" />,
});

const INTERVAL_LABELS = { day: "Daily", hour: "Hourly" } as const;
// SVG presentation attributes take plain colours: brand-600 as hex for Facebook, each other network's own
// colour (darkened where it would be faint on white).
const NETWORK_COLORS: Record<NetworkId, string> = {
  facebook: "#0060c1",
  pinterest: "#c8232c",
  reddit: "#d93900",
  hackernews: "#b45309",
  bluesky: "#0070e0",
  vk: "#4a76a8",
  ok: "#c76a00",
  tumblr: "#36465d",
};

export function HistoryCard({
  view,
  networks,
  refreshedAt,
  onChange,
}: {
  view: UrlView;
  /** The networks the account shows: a chart each. */
  networks: readonly HeadlineNetwork[];
  refreshedAt: string | null;
  onChange: (next: Partial<Omit<UrlView, "url">>) => void;
}) {
  return (
    <Card
      title={`History, last ${view.range} days`}
      actions={
        <a
          href={historyCsvPath(view)}
          download
          className="inline-flex items-center justify-center rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50"
        >
          Export CSV
        </a>
      }
    >
      <div className="mb-4 flex flex-wrap gap-2">
        <Segmented
          label="Range"
          options={HISTORY_RANGES.map((range) => ({ value: range, label: `${range} days` }))}
          value={view.range}
          onChange={(range) => onChange({ range })}
        />
        <Segmented
          label="Interval"
          options={HISTORY_INTERVALS.map((interval) => ({ value: interval, label: INTERVAL_LABELS[interval] }))}
          value={view.interval}
          onChange={(interval) => onChange({ interval })}
        />
      </div>
      <Charts view={view} networks={networks} refreshedAt={refreshedAt} />
    </Card>
  );
}

function Segmented<T extends string | number>({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: { value: T; label: string }[];
  value: T;
  onChange: (value: T) => void;
}) {
  return (
    <div role="group" aria-label={label} className="inline-flex rounded-md border border-slate-300 bg-white p-0.5">
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          aria-pressed={option.value === value}
          onClick={() => onChange(option.value)}
          className={`rounded px-2.5 py-1.5 text-sm font-medium whitespace-nowrap sm:px-3 ${
            option.value === value ? "bg-brand-600 text-white" : "text-slate-700 hover:bg-slate-100"
          }`}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}

function Charts({ view, networks, refreshedAt }: { view: UrlView; networks: readonly HeadlineNetwork[]; refreshedAt: string | null }) {
  const history = useHistory(view, refreshedAt);
  if (history.isPending) return <LoadingState label="Loading the history…" className="h-[30rem]" />;
  if (history.isError) return <ErrorState message={history.error.message} onRetry={() => void history.refetch()} />;
  if (history.data.points.length === 0) {
    return (
      <EmptyState>
        No counts in this range yet. A new URL is counted within a minute of tracking; refresh shortly.
      </EmptyState>
    );
  }
  return (
    // Two charts a row on a wide screen: eight networks one under another would be a long page.
    <div
      className={`grid gap-6 ${networks.length > 1 ? "lg:grid-cols-2" : ""} ${history.isPlaceholderData ? "opacity-60" : ""}`}
      aria-busy={history.isPlaceholderData}
    >
      {networks.map((network) => (
        <NetworkHistory key={network.key} points={history.data.points} network={network} view={view} />
      ))}
    </div>
  );
}

function NetworkHistory({
  points,
  network,
  view,
}: {
  points: HistoryAnswer["points"];
  network: HeadlineNetwork;
  view: UrlView;
}) {
  const series = useMemo(() => networkSeries(points, network.key), [points, network.key]);
  const captionId = useId();
  const now = useNow();
  const known = series.filter((point) => point.value !== null);
  const title = `${network.label} ${network.measure}, ${view.interval === "hour" ? "hourly" : "daily"}, last ${view.range} days`;
  return (
    <figure data-testid={`history-${network.key}`} className="min-w-0">
      <h3 className="text-sm font-semibold">
        {network.label} <span className="font-normal text-slate-600">({network.measure})</span>
      </h3>
      <figcaption id={captionId} className="mb-2 text-xs text-slate-600">
        {known.length === 0
          ? `${network.label} did not report in this range: nothing to draw (not a zero).`
          : known.length === 1
            ? `${formatNumber(known[0]!.value!)}: one point so far.`
            : `${formatNumber(known[0]!.value!)} to ${formatNumber(known.at(-1)!.value!)} over ${formatNumber(known.length)} points` +
              (known.length < series.length ? "; gaps where it did not report." : ".")}
      </figcaption>
      {hasValues(series) && now !== null && (
        <HistoryChart
          series={series}
          domain={rangeDomain(view.range, now)}
          interval={view.interval}
          color={NETWORK_COLORS[network.key]}
          name={network.label}
          title={title}
          describedBy={captionId}
        />
      )}
    </figure>
  );
}
