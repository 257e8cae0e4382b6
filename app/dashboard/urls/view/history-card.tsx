"use client";

import { Card } from "@/components/ui/card";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { HISTORY_RANGES } from "@/dashboard/client/history-range";
import type { AlertMark } from "@/dashboard/client/alerts/marks";
import { useAlertMarks } from "@/dashboard/client/hooks/use-alert-marks";
import { useHistory } from "@/dashboard/client/hooks/use-tracked";
import type { HeadlineNetwork } from "@/dashboard/client/tracked/networks";
import { historyCsvPath, HISTORY_INTERVALS, type UrlView } from "@/dashboard/client/tracked/url-view";
import { NetworkHistory } from "./network-history";
import { TotalHistory } from "./total-history";

const NO_MARKS: AlertMark[] = [];
const INTERVAL_LABELS = { day: "Daily", hour: "Hourly" } as const;

export function HistoryCard({
  view,
  networks,
  refreshedAt,
  onChange,
}: {
  view: UrlView;
  /** The networks the account shows: a chart each, and their Total. */
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
  // The marks are extra: while they load, or if they fail, the charts show without them.
  const marks = useAlertMarks(view.range, view.url).data ?? NO_MARKS;
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
      <TotalHistory points={history.data.points} networks={networks} view={view} marks={marks} />
      {networks.map((network) => (
        <NetworkHistory key={network.key} points={history.data.points} network={network} view={view} marks={marks} />
      ))}
    </div>
  );
}
