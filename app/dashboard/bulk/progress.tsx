import { LocalTime } from "./local-time";

export const formatCount = (n: number) => n.toLocaleString("en-US");

export interface JobProgress {
  urlsQueued: number;
  urlsCompleted: number;
  completed: boolean;
  /** Epoch ms or ISO time while the job waits for the quota to reset. */
  pausedUntil: number | string | null;
}

const percentDone = (job: JobProgress) => (job.urlsQueued === 0 ? 100 : Math.floor((job.urlsCompleted * 100) / job.urlsQueued));

export function ProgressBar({
  job,
  label,
  labelledBy,
  className = "h-2",
}: {
  job: JobProgress;
  label?: string;
  labelledBy?: string;
  className?: string;
}) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-labelledby={labelledBy}
      aria-valuemin={0}
      aria-valuemax={job.urlsQueued}
      aria-valuenow={job.urlsCompleted}
      aria-valuetext={`${formatCount(job.urlsCompleted)} of ${formatCount(job.urlsQueued)} URLs counted`}
      className={`w-full overflow-hidden rounded-full bg-slate-200 ${className}`}
    >
      <div
        className={`h-full rounded-full transition-[width] duration-500 ${job.completed ? "bg-emerald-600" : job.pausedUntil ? "bg-amber-500" : "bg-brand-600"}`}
        style={{ width: `${percentDone(job)}%` }}
      />
    </div>
  );
}

/** "Complete", "Paused until …" or "Counting: 40%". */
export function JobStatus({ job }: { job: JobProgress }) {
  if (job.completed) return <span className="font-medium text-emerald-700">Complete</span>;
  if (job.pausedUntil) {
    return (
      <span className="font-medium text-amber-700">
        Paused until <LocalTime at={job.pausedUntil} />
      </span>
    );
  }
  return <span className="font-medium text-brand-700">Counting: {percentDone(job)}%</span>;
}
