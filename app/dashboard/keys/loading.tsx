export default function Loading() {
  return (
    <div aria-busy="true" aria-live="polite" className="animate-pulse space-y-4">
      <span className="sr-only">Loading API keys…</span>
      <div className="h-8 w-32 rounded bg-slate-200" />
      <div className="h-80 rounded bg-slate-200" />
    </div>
  );
}
