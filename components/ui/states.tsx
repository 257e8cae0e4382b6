import type { ReactNode } from "react";
import { Button } from "./button";

export function LoadingState({ label = "Loading…", className = "h-32" }: { label?: string; className?: string }) {
  return (
    <div role="status" aria-live="polite" data-loading className={`animate-pulse rounded bg-slate-100 ${className}`}>
      <span className="sr-only">{label}</span>
    </div>
  );
}

export function ErrorState({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div role="alert" className="flex flex-wrap items-center justify-between gap-3 rounded-md bg-red-50 px-4 py-3 text-sm text-red-800">
      <span>{message}</span>
      {onRetry && <Button onClick={onRetry}>Retry</Button>}
    </div>
  );
}

export function EmptyState({ children }: { children: ReactNode }) {
  return <div className="rounded-md border border-dashed border-slate-300 px-4 py-8 text-center text-sm text-slate-600">{children}</div>;
}

/** Why an action just failed, read out as it appears; nothing while there is no error. */
export function FailureNote({ error }: { error: Error | null }) {
  return error ? (
    <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
      {error.message}
    </p>
  ) : null;
}
