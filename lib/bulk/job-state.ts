import type { BulkJob } from "../store/bulk.ts";

/** Every URL of the job is counted. */
export const isComplete = (job: BulkJob): boolean => job.urlsCompleted >= job.urlsQueued;

/**
 * When the job, waiting for its account's quota to reset, resumes; null when it is not waiting. The worker
 * leaves the last pause time in place after resuming: only a future one means "paused".
 */
export function pausedUntil(job: BulkJob, now: number): number | null {
  return !isComplete(job) && job.pausedUntil !== null && job.pausedUntil > now ? job.pausedUntil : null;
}

/**
 * Queries of the daily quota the job has spent: each counted URL spent exactly one, in the same transaction
 * that stored its result (BulkStore.complete), and nothing else about a job spends any.
 */
export const quotaSpent = (job: Pick<BulkJob, "urlsCompleted">): number => job.urlsCompleted;
