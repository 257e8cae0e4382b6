"use client";

import { Button } from "@/components/ui/button";
import { formatDuration, formatNumber, quotaLevel } from "@/dashboard/client/format";
import { useNow } from "@/dashboard/client/hooks/use-now";
import { useTrackedStatus } from "@/dashboard/client/hooks/use-tracked";

/** "N of LIMIT URLs tracked", a warning near the limit, and a notice while refreshes run late. */
export function TrackedStatusLine() {
  const status = useTrackedStatus();
  const now = useNow();
  if (status.isPending) {
    return (
      <p role="status" className="mt-2 h-5 w-56 animate-pulse rounded bg-slate-200">
        <span className="sr-only">Loading how many URLs are tracked…</span>
      </p>
    );
  }
  if (status.isError) {
    return (
      <p role="alert" className="mt-2 flex flex-wrap items-center gap-2 text-sm text-red-800">
        How many URLs are tracked could not be loaded: {status.error.message}
        <Button onClick={() => void status.refetch()} className="py-1">
          Retry
        </Button>
      </p>
    );
  }
  const { tracked, limit, delayed, due, oldest_due_at: oldestDueAt } = status.data;
  const level = quotaLevel(tracked, limit);
  return (
    <div className="mt-2 space-y-2 text-sm">
      <p data-testid="tracked-summary">
        <strong className="tabular-nums">{formatNumber(tracked)}</strong> of {formatNumber(limit)} URLs tracked
        {level === "exhausted" ? " — your plan's limit: remove some to add others." : ""}
      </p>
      {level === "warning" && (
        <p className="rounded-md bg-amber-50 px-3 py-2 text-amber-900">
          Close to your plan&apos;s limit: {formatNumber(limit - tracked)} more URL{limit - tracked === 1 ? "" : "s"} can be tracked.
        </p>
      )}
      {delayed && (
        <p role="status" className="rounded-md bg-amber-50 px-3 py-2 text-amber-900" data-testid="refresh-delayed">
          Refreshes are delayed: the networks&apos; budget cannot cover the schedule right now, so the most overdue URLs are refreshed first.{" "}
          {formatNumber(due)} URL{due === 1 ? " is" : "s are"} waiting
          {oldestDueAt && now !== null ? <>, the longest for {formatDuration(Math.max(0, now - Date.parse(oldestDueAt)))}</> : null}.
        </p>
      )}
    </div>
  );
}
