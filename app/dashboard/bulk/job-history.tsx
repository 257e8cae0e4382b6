import Link from "next/link";
import { Card } from "@/components/ui/card";
import { EmptyState, ErrorState } from "@/components/ui/states";
import type { BulkJobSummary } from "@/dashboard/client/bulk/types";
import { LocalTime } from "./local-time";
import { formatCount, JobStatus, ProgressBar, type JobProgress } from "./progress";

const progressOf = (job: BulkJobSummary): JobProgress => ({ ...job, completed: job.completedAt !== null });

export function JobHistory({
  jobs,
  retentionDays,
  error,
  onRetry,
}: {
  jobs: BulkJobSummary[];
  retentionDays: number;
  error: Error | null;
  onRetry: () => void;
}) {
  return (
    <Card title="Your bulk jobs">
      <p className="mb-3 text-sm text-slate-600">
        Newest first. Results are kept {retentionDays} day{retentionDays === 1 ? "" : "s"} after a job completes.
      </p>
      {error && (
        <div className="mb-3">
          <ErrorState message={`The job list could not be refreshed: ${error.message}`} onRetry={onRetry} />
        </div>
      )}
      {jobs.length === 0 ? (
        <EmptyState>No bulk jobs yet. Jobs you start appear here, with their progress.</EmptyState>
      ) : (
        <ul aria-label="Bulk jobs" className="divide-y divide-slate-200">
          {jobs.map((job) => (
            <li key={job.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3">
              <div className="min-w-0 flex-1 basis-48">
                <Link
                  id={`job-${job.id}`}
                  href={`/dashboard/bulk/${encodeURIComponent(job.id)}`}
                  className="break-words font-medium text-brand-700 underline-offset-2 hover:underline"
                >
                  {job.name ?? (
                    <>
                      Job started <LocalTime at={job.createdAt} />
                    </>
                  )}
                </Link>
                <p className="text-sm text-slate-600">
                  {job.name !== null && (
                    <>
                      Started <LocalTime at={job.createdAt} /> ·{" "}
                    </>
                  )}
                  {formatCount(job.urlsCompleted)} of {formatCount(job.urlsQueued)} URLs · <JobStatus job={progressOf(job)} />
                </p>
              </div>
              <div className="w-full sm:w-48">
                <ProgressBar job={progressOf(job)} labelledBy={`job-${job.id}`} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
