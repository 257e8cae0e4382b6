"use client";

import Link from "next/link";
import { useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { resultsCsv, resultsJson, sortResultRows, type BulkResultRow, type ResultSort } from "@/dashboard/client/bulk/results";
import type { NetworkId } from "@/lib/counts/all-networks";
import type { BulkJobSummary } from "@/dashboard/client/bulk/types";
import { isMissingJob, useBulkJob } from "@/dashboard/client/hooks/use-bulk-jobs";
import { LocalTime } from "../local-time";
import { formatCount, JobStatus, ProgressBar, type JobProgress } from "../progress";
import { NetworkBanner } from "../../network-banner";
import { NoSuchJob } from "./no-such-job";
import { ResultsTable, type RowSelection } from "./results-table";
import { TrackSelected } from "./track-selected";

function saveFile(name: string, content: string, type: string) {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.click();
  // Revoking at once can cancel a download that has not started reading the blob yet (FileSaver waits 40 s too).
  setTimeout(() => URL.revokeObjectURL(url), 40_000);
}

/** Rows chosen by URL, so a choice survives sorting and the rows that arrive while the job runs. */
function useRowSelection(): RowSelection & { clear: () => void } {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  return {
    selected,
    set: (urls, on) =>
      setSelected((current) => {
        const next = new Set(current);
        for (const url of urls) {
          if (on) next.add(url);
          else next.delete(url);
        }
        return next;
      }),
    clear: () => setSelected(new Set()),
  };
}

export function JobClient({ job }: { job: BulkJobSummary }) {
  const { data, error, isPending, refetch } = useBulkJob(job.id);
  const [sort, setSort] = useState<ResultSort | null>(null);
  const rows = data?.rows;
  const sorted = useMemo(() => (rows && sort ? sortResultRows(rows, sort) : (rows ?? [])), [rows, sort]);
  const selection = useRowSelection();
  const [copied, setCopied] = useState("");
  // It existed when the page loaded; it can expire while the page is open.
  if (isMissingJob(error)) return <NoSuchJob />;

  const progress: JobProgress = data?.meta ?? { ...job, completed: job.completedAt !== null };
  const phase = progress.completed ? "Complete" : progress.pausedUntil ? "Paused" : "Counting";
  const quotaSpent = data?.meta.quotaSpent ?? job.quotaSpent;
  // In the order the table shows them: when not all fit, the first ones are tracked.
  const selectedUrls = sorted.filter((row) => selection.selected.has(row.url)).map((row) => row.url);

  return (
    <div className="space-y-6">
      <div>
        <Link href="/dashboard/bulk" className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline">
          ← All bulk jobs
        </Link>
        <h1 className="mt-1 break-words text-xl font-semibold">{job.name ?? "Bulk job"}</h1>
        <p className="text-sm text-slate-600">
          Started <LocalTime at={job.createdAt} /> · {formatCount(progress.urlsQueued)} URLs ·{" "}
          <span className="break-all">
            id <code>{job.id}</code>
          </span>
        </p>
      </div>
      <NetworkBanner relied={job.networks} />

      <Card title="Progress">
        <ProgressBar job={progress} label="Job progress" className="h-3" />
        <p className="mt-2 flex flex-wrap justify-between gap-2 text-sm">
          <span className="tabular-nums" data-testid="bulk-progress-text">
            {formatCount(progress.urlsCompleted)} of {formatCount(progress.urlsQueued)} URLs counted
          </span>
          <JobStatus job={progress} />
        </p>
        <p className="mt-1 text-sm text-slate-700">
          Quota spent:{" "}
          <strong className="tabular-nums" data-testid="bulk-quota-spent">
            {formatCount(quotaSpent)} quer{quotaSpent === 1 ? "y" : "ies"}
          </strong>{" "}
          of the daily quota, one per URL counted.
        </p>
        <p className="sr-only" aria-live="polite">
          {phase}
        </p>
        {progress.pausedUntil && !progress.completed && (
          <p className="mt-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
            Paused: this account has used today’s quota. The job resumes by itself at <LocalTime at={progress.pausedUntil} />, when the
            quota resets; the URLs counted so far are kept.
          </p>
        )}
        {error && data && (
          <div className="mt-3">
            <ErrorState message={`Progress could not be refreshed: ${error.message}`} onRetry={() => void refetch()} />
          </div>
        )}
      </Card>

      <Card
        title={data ? `Results (${formatCount(data.rows.length)})` : "Results"}
        actions={data && data.rows.length > 0 && <Downloads jobId={job.id} rows={data.rows} networks={job.networks} partial={!data.meta.completed} />}
      >
        {isPending ? (
          <LoadingState label="Loading results…" className="h-64" />
        ) : !data ? (
          <ErrorState message={error?.message ?? "The results could not be loaded."} onRetry={() => void refetch()} />
        ) : data.rows.length === 0 ? (
          <EmptyState>No URL has been counted yet. Results appear here as the job runs.</EmptyState>
        ) : (
          <>
            <p className="mb-3 text-sm text-slate-600">
              {data.meta.completed
                ? "Every URL of the job, as submitted."
                : `Partial results: the ${formatCount(data.rows.length)} URLs counted so far. The table fills in as the job runs.`}{" "}
              “not reported” means the network gave no count, which is not the same as 0.
            </p>
            <TrackSelected urls={selectedUrls} total={data.rows.length} onClear={selection.clear} />
            <p role="status" className="mb-2 min-h-5 break-all text-xs text-slate-600">
              {copied}
            </p>
            <ResultsTable sorted={sorted} sort={sort} onSort={setSort} networks={job.networks} selection={selection} onCopied={setCopied} />
          </>
        )}
      </Card>
    </div>
  );
}

function Downloads({ jobId, rows, networks, partial }: { jobId: string; rows: BulkResultRow[]; networks: readonly NetworkId[]; partial: boolean }) {
  const name = `bulk-${jobId}${partial ? "-partial" : ""}`;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button onClick={() => saveFile(`${name}.csv`, resultsCsv(rows, networks), "text/csv;charset=utf-8")} aria-describedby="csv-note">
        Download CSV
      </Button>
      <Button onClick={() => saveFile(`${name}.json`, resultsJson(rows), "application/json")}>Download JSON</Button>
      <span id="csv-note" className="w-full text-xs text-slate-500 sm:w-auto">
        In the CSV an empty cell means not reported.
      </span>
    </div>
  );
}
