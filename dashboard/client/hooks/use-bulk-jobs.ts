import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { BulkJobResults, BulkJobSummary, BulkOverview, BulkSubmitted } from "../bulk/types.ts";
import { DashboardError } from "../dashboard-error.ts";
import { fetchJson } from "../fetch-json.ts";

/** While a job counts, its progress is asked for this often; a job paused until the quota resets, less often. */
const RUNNING_POLL_MS = 2_000;
const PAUSED_POLL_MS = 30_000;

function pollInterval(jobs: { completed: boolean; paused: boolean }[]): number | false {
  const open = jobs.filter((job) => !job.completed);
  if (open.length === 0) return false;
  return open.every((job) => job.paused) ? PAUSED_POLL_MS : RUNNING_POLL_MS;
}

const summaryState = (job: BulkJobSummary) => ({ completed: job.completedAt !== null, paused: job.pausedUntil !== null });

/** Unknown, expired, or another account's: the API does not say which. */
export const isMissingJob = (error: unknown) => error instanceof DashboardError && error.status === 404;

const overviewKey = ["bulk-jobs"] as const;
const jobKey = (id: string) => ["bulk-jobs", id] as const;

/** The plan's bulk limits and this account's jobs; refreshes while any job is still counting. */
export function useBulkJobs(initialData: BulkOverview) {
  return useQuery({
    queryKey: overviewKey,
    queryFn: () => fetchJson<BulkOverview>("/api/dashboard/bulk"),
    initialData,
    refetchInterval: (query) => pollInterval(query.state.data?.jobs.map(summaryState) ?? []),
  });
}

/** One job's progress and results so far; polls until it is complete, and not at all for a job that does not exist. */
export function useBulkJob(id: string) {
  return useQuery({
    queryKey: jobKey(id),
    queryFn: () => fetchJson<BulkJobResults>(`/api/dashboard/bulk/${encodeURIComponent(id)}`),
    retry: (failures, error) => !isMissingJob(error) && failures < 2,
    refetchInterval: (query) => {
      if (isMissingJob(query.state.error)) return false;
      const meta = query.state.data?.meta;
      return pollInterval([{ completed: meta?.completed ?? false, paused: Boolean(meta?.pausedUntil) }]);
    },
  });
}

export function useSubmitBulkJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (job: { urls: string[]; name?: string }) => fetchJson<BulkSubmitted>("/api/dashboard/bulk", { method: "POST", json: job }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: overviewKey, exact: true }),
  });
}
