export default function Loading() {
  return (
    <div aria-busy="true" aria-live="polite" className="animate-pulse space-y-4">
      <span className="sr-only">Loading alerts…</span>
      <div className="h-8 w-32 rounded bg-slate-200" />
      <div className="h-72 rounded bg-slate-200" />
      <div className="h-40 rounded bg-slate-200" />
    </div>
  );
}
