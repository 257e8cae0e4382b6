"use client";

import dynamic from "next/dynamic";
import Link from "next/link";
import { useId, useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { downloadFile } from "@/dashboard/client/download";
import { exampleQuery } from "@/dashboard/client/example-query";
import { formatNumber } from "@/dashboard/client/format";
import {
  describeRange,
  formatUsageDate,
  REFUSAL_LABELS,
  REFUSAL_REASONS,
  refusedSum,
  requests,
  summarizeUsage,
  type UsageAnswer,
  type UsageRange,
  type UsageSummary,
} from "@/dashboard/client/usage";
import { usageCsv, usageCsvFilename } from "@/dashboard/client/usage-csv";
import { copyText } from "@/dashboard/client/clipboard";
import { useUsage } from "@/dashboard/client/hooks/use-usage";
import { REFUSAL_COLORS, SERVED_COLOR } from "./colors";
import { RangePicker } from "./range-picker";
import { UsageTable } from "./usage-table";

// Recharts is large: load it in the browser only, and only on this page.
const UsageChart = dynamic(() => import("./usage-chart"), {
  ssr: false,
  loading: () => <LoadingState label="Loading chart…" className="h-72" />,
});

interface Props {
  quotaTimeZone: string;
  /** Where the API answers, for the first request to make. */
  origin: string;
}

export function UsageClient({ quotaTimeZone, origin }: Props) {
  const { range, setRange, query } = useUsage();
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-xl font-semibold">Usage</h1>
          <p className="text-sm text-slate-600">
            Queries served and refused per quota day (midnight to midnight, {quotaTimeZone}), and that day&apos;s quota.
          </p>
        </div>
        <RangePicker range={range} shown={query.data ? { from: query.data.from, to: query.data.to } : null} onChange={setRange} />
      </div>
      {query.isPending ? (
        <LoadingState label="Loading usage…" className="h-96" />
      ) : query.isError ? (
        <ErrorState message={query.error.message} onRetry={() => void query.refetch()} />
      ) : (
        <UsageReport range={range} answer={query.data} firstRequest={<FirstRequest origin={origin} />} />
      )}
    </div>
  );
}

const plural = (n: number, one: string, many: string) => `${formatNumber(n)} ${n === 1 ? one : many}`;

/** The report in words: what the chart shows, for those who cannot see it. */
function summaryOf({ served, refused, busiest }: UsageSummary, since: string | null): string {
  const refusedTotal = refusedSum(refused);
  const reasons = REFUSAL_REASONS.map((reason) => `${formatNumber(refused[reason])} ${REFUSAL_LABELS[reason].toLowerCase()}`).join(", ");
  return (
    `${plural(served, "query", "queries")} served and ${formatNumber(refusedTotal)} refused` +
    (refusedTotal > 0 ? ` (${reasons})` : "") +
    (busiest ? `; the busiest day was ${formatUsageDate(busiest.date, "medium")} with ${plural(requests(busiest), "request", "requests")}.` : ".") +
    (since ? ` Your account's history starts on ${formatUsageDate(since, "medium")}.` : "")
  );
}

/** Why there is nothing to show. */
function nothingIn(range: UsageRange, answer: UsageAnswer, since: string | null): string {
  if (answer.usage.length === 0) return "No queries: your account did not exist yet in this range.";
  if (since) return "No queries since your account was created.";
  if ("days" in range) return `No queries in the last ${range.days} days.`;
  return `No queries from ${formatUsageDate(answer.from, "medium")} to ${formatUsageDate(answer.to, "medium")}.`;
}

function UsageReport({ range, answer, firstRequest }: { range: UsageRange; answer: UsageAnswer; firstRequest: ReactNode }) {
  const { usage } = answer;
  const summary = summarizeUsage(usage);
  const summaryId = useId();
  const [fitToQueries, setFitToQueries] = useState(false);
  const label = describeRange(range);
  // The report starts on the account's first day: a younger account has fewer days than the range.
  const since = usage[0] && usage[0].date > answer.from ? usage[0].date : null;
  if (!summary.busiest) {
    // Every day is present with nothing in it; a table of zeros would say less than the first query to make. A
    // custom range of the past says only that it was quiet: the account may well have made queries since.
    if (!("days" in range)) return <EmptyState>{nothingIn(range, answer, since)}</EmptyState>;
    return (
      <EmptyState>
        <p>
          {nothingIn(range, answer, since)} Queries made with your API key are counted here the same day. Make your first one:
        </p>
        {firstRequest}
      </EmptyState>
    );
  }
  const title = `Queries per day, served and refused, and daily quota, ${label}`;
  return (
    <>
      <Card
        title={"days" in range ? `Last ${range.days} days` : label}
        actions={
          <div className="flex flex-wrap items-center gap-3">
            <label className="inline-flex items-center gap-2 text-sm">
              <input type="checkbox" checked={fitToQueries} onChange={(event) => setFitToQueries(event.target.checked)} className="accent-brand-600" />
              Scale to queries
            </label>
            <Button onClick={() => downloadFile(usageCsvFilename(usage), usageCsv(usage), "text/csv;charset=utf-8")}>Export CSV</Button>
          </div>
        }
      >
        <Totals summary={summary} />
        <figure>
          <figcaption id={summaryId} className="mb-3 text-sm text-slate-600">
            {summaryOf(summary, since)}
          </figcaption>
          <UsageChart usage={usage} title={title} describedBy={summaryId} fitToQueries={fitToQueries} />
        </figure>
      </Card>
      <Card title="Day by day">
        <UsageTable usage={usage} rangeLabel={label} />
      </Card>
    </>
  );
}

/** The range's totals, each with its colour in the chart. */
function Totals({ summary }: { summary: UsageSummary }) {
  const tiles = [
    { label: "Served", value: summary.served, color: SERVED_COLOR },
    ...REFUSAL_REASONS.map((reason) => ({ label: `Refused: ${REFUSAL_LABELS[reason].toLowerCase()}`, value: summary.refused[reason], color: REFUSAL_COLORS[reason] })),
  ];
  return (
    <dl className="mb-4 grid grid-cols-2 gap-3 sm:grid-cols-4" aria-label="Totals">
      {tiles.map((tile) => (
        <div key={tile.label} className="rounded-md border border-slate-200 px-3 py-2">
          <dt className="flex items-center gap-2 text-xs font-medium text-slate-600">
            <span aria-hidden className="inline-block size-2.5 shrink-0 rounded-sm" style={{ backgroundColor: tile.color }} />
            {tile.label}
          </dt>
          <dd className="mt-1 text-lg font-semibold tabular-nums">{formatNumber(tile.value)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The first request to make, to copy: keys are shown only when made, so it names where to get one. */
function FirstRequest({ origin }: { origin: string }) {
  const [notice, setNotice] = useState("");
  return (
    <div className="mx-auto mt-4 max-w-2xl text-left">
      {/* Wrapped, not scrolled: on a phone the key is at the end of the line. */}
      <pre className="whitespace-pre-wrap break-all rounded-md bg-slate-900 dark:bg-slate-50 px-3 py-2 text-sm text-slate-100 dark:text-slate-800" data-testid="first-request">
        <code>{exampleQuery(origin, "YOUR_API_KEY")}</code>
      </pre>
      <div className="mt-2 flex flex-wrap items-center justify-center gap-2">
        <Button onClick={() => void copyText(Promise.resolve(exampleQuery(origin, "YOUR_API_KEY")), "Copied: put your key in place of YOUR_API_KEY.").then(setNotice)}>Copy</Button>
        <Link className="text-sm text-brand-700 underline" href="/dashboard/keys">
          Create a key
        </Link>
      </div>
      <p role="status" className="mt-2 min-h-5 text-center text-sm text-slate-700">
        {notice}
      </p>
    </div>
  );
}
