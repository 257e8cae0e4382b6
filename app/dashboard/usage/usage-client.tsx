"use client";

import dynamic from "next/dynamic";
import { useId, useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { downloadFile } from "@/dashboard/client/download";
import { exampleQuery } from "@/dashboard/client/example-query";
import { formatNumber, formatPercent } from "@/dashboard/client/format";
import { formatUsageDate, quotaShare, summarizeUsage, USAGE_RANGES, type UsageDay, type UsageRange } from "@/dashboard/client/usage";
import { usageCsv, usageCsvFilename } from "@/dashboard/client/usage-csv";
import { useRevealedKey } from "@/dashboard/client/hooks/use-api-key";
import { useUsage } from "@/dashboard/client/hooks/use-usage";

// Recharts is large: load it in the browser only, and only on this page.
const UsageChart = dynamic(() => import("./usage-chart"), {
  ssr: false,
  loading: () => <LoadingState label="Loading chart…" className="h-72" />,
});

interface Props {
  quotaTimeZone: string;
  /** Where the API answers, for the first request to make. */
  origin: string;
  apiKeyMask: string | null;
}

export function UsageClient({ quotaTimeZone, origin, apiKeyMask }: Props) {
  const { days, setRange, query } = useUsage();
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-xl font-semibold">Usage</h1>
          <p className="text-sm text-slate-600">Queries per quota day (midnight to midnight, {quotaTimeZone}) and that day&apos;s quota.</p>
        </div>
        <RangePicker days={days} onChange={setRange} />
      </div>
      {query.isPending ? (
        <LoadingState label="Loading usage…" className="h-96" />
      ) : query.isError ? (
        <ErrorState message={query.error.message} onRetry={() => void query.refetch()} />
      ) : (
        <UsageReport days={days} usage={query.data.usage} firstRequest={<FirstRequest origin={origin} apiKeyMask={apiKeyMask} />} />
      )}
    </div>
  );
}

function RangePicker({ days, onChange }: { days: UsageRange; onChange: (range: UsageRange) => void }) {
  return (
    <div role="group" aria-label="Range" className="inline-flex rounded-md border border-slate-300 bg-white p-0.5">
      {USAGE_RANGES.map((range) => (
        <button
          key={range}
          type="button"
          aria-pressed={range === days}
          onClick={() => onChange(range)}
          className={`rounded px-3 py-1.5 text-sm font-medium ${
            range === days ? "bg-brand-600 text-white" : "text-slate-700 hover:bg-slate-100"
          }`}
        >
          {range} days
        </button>
      ))}
    </div>
  );
}

function UsageReport({ days, usage, firstRequest }: { days: UsageRange; usage: UsageDay[]; firstRequest: ReactNode }) {
  const { total, busiest } = summarizeUsage(usage);
  const summaryId = useId();
  const [fitToQueries, setFitToQueries] = useState(false);
  // The report starts on the account's first day: a younger account has fewer days than the range.
  const since = usage.length < days && usage[0] ? usage[0].date : null;
  if (!busiest) {
    // Every day is present with 0 queries; a table of zeros would say less than the first query to make.
    return (
      <EmptyState>
        <p>
          No queries {since ? "since your account was created" : `in the last ${days} days`}. Queries made with your API key are
          counted here the same day. Make your first one:
        </p>
        {firstRequest}
      </EmptyState>
    );
  }
  const title = `Queries per day and daily quota, last ${days} days`;
  const summary =
    `${formatNumber(total)} ${total === 1 ? "query" : "queries"} in total; ` +
    `the busiest day was ${formatUsageDate(busiest.date, "medium")} with ${formatNumber(busiest.queries)}.` +
    (since ? ` Your account's history starts on ${formatUsageDate(since, "medium")}.` : "");
  return (
    <>
      <Card
        title={`Last ${days} days`}
        actions={
          <div className="flex flex-wrap items-center gap-3">
            <label className="inline-flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={fitToQueries}
                onChange={(event) => setFitToQueries(event.target.checked)}
                className="accent-brand-600"
              />
              Scale to queries
            </label>
            <Button onClick={() => downloadFile(usageCsvFilename(usage), usageCsv(usage), "text/csv;charset=utf-8")}>
              Export CSV
            </Button>
          </div>
        }
      >
        <figure>
          <figcaption id={summaryId} className="mb-3 text-sm text-slate-600">
            {summary}
          </figcaption>
          <UsageChart usage={usage} title={title} describedBy={summaryId} fitToQueries={fitToQueries} />
        </figure>
      </Card>
      <Card title="Day by day">
        <UsageTable usage={usage} days={days} />
      </Card>
    </>
  );
}

function UsageTable({ usage, days }: { usage: UsageDay[]; days: UsageRange }) {
  // Newest first: today is what people look for.
  const rows = usage.toReversed();
  return (
    <div className="-mx-4 overflow-x-auto sm:mx-0">
      <table className="w-full text-sm tabular-nums">
        <caption className="sr-only">Queries, quota and share of the quota used per day, last {days} days, newest first</caption>
        <thead>
          <tr className="border-b border-slate-200 text-left text-slate-600">
            <th scope="col" className="px-4 py-2 font-medium sm:pl-0">
              Date
            </th>
            <th scope="col" className="px-4 py-2 text-right font-medium">
              Queries
            </th>
            <th scope="col" className="px-4 py-2 text-right font-medium">
              Quota
            </th>
            <th scope="col" className="whitespace-nowrap px-4 py-2 text-right font-medium sm:pr-0">
              % used
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((day) => {
            const share = quotaShare(day);
            return (
              <tr key={day.date} className="border-b border-slate-100 last:border-0">
                <th scope="row" className="whitespace-nowrap px-4 py-2 text-left font-normal sm:pl-0">
                  <time dateTime={day.date}>{formatUsageDate(day.date, "medium")}</time>
                </th>
                <td className="px-4 py-2 text-right">{formatNumber(day.queries)}</td>
                <td className="px-4 py-2 text-right">{formatNumber(day.quota)}</td>
                <td className="px-4 py-2 text-right sm:pr-0">{share === null ? "—" : formatPercent(share)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** The first request to make, to copy: with the key masked until the user asks to see it. */
function FirstRequest({ origin, apiKeyMask }: { origin: string; apiKeyMask: string | null }) {
  const { revealed, busy, notice, toggle, copy } = useRevealedKey();
  const key = revealed ?? apiKeyMask ?? "YOUR_API_KEY";
  return (
    <div className="mx-auto mt-4 max-w-2xl text-left">
      {/* Wrapped, not scrolled: on a phone the key is at the end of the line. */}
      <pre className="whitespace-pre-wrap break-all rounded-md bg-slate-900 px-3 py-2 text-sm text-slate-100" data-testid="first-request">
        <code>{exampleQuery(origin, key)}</code>
      </pre>
      {apiKeyMask && (
        <div className="mt-2 flex flex-wrap justify-center gap-2">
          <Button onClick={() => void toggle()} disabled={busy}>
            {revealed ? "Hide key" : "Reveal key"}
          </Button>
          <Button onClick={() => void copy((k) => exampleQuery(origin, k), "Copied: paste it into a terminal.")} disabled={busy}>
            Copy
          </Button>
        </div>
      )}
      <p role="status" className="mt-2 min-h-5 text-center text-sm text-slate-700">
        {notice}
      </p>
    </div>
  );
}
