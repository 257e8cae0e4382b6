"use client";

import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { ErrorState } from "@/components/ui/states";
import { useCancelImport, useImportProgress, useStartImport } from "@/dashboard/client/hooks/use-tracked";
import { importProgressMessage } from "@/dashboard/client/tracked/import-progress";
import type { ImportSource } from "@/dashboard/client/tracked/types";
import { AddCost } from "./add-cost";

const SOURCE_TEXT: Record<ImportSource, { label: string; placeholder: string; hint: string }> = {
  sitemap: {
    label: "Sitemap URL",
    placeholder: "https://example.com/sitemap.xml",
    hint: "A sitemap or sitemap index (gzipped files too). Its pages are tracked as it is read, until your plan's free slots or today's quota run out.",
  },
  feed: {
    label: "Feed URL",
    placeholder: "https://example.com/feed.xml",
    hint: "An RSS or Atom feed. It is read again daily, and its new items are tracked as they appear.",
  },
};

export function ImportPanel({ source }: { source: ImportSource }) {
  const start = useStartImport();
  const [url, setUrl] = useState("");
  const text = SOURCE_TEXT[source];
  const id = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (url.trim()) start.mutate({ source, url: url.trim() });
  }

  return (
    <>
      <form onSubmit={submit} className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="min-w-0 flex-1">
          <label htmlFor={id} className="block text-sm font-medium">
            {text.label}
          </label>
          <input
            id={id}
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            required
            value={url}
            onChange={(event) => setUrl(event.target.value)}
            placeholder={text.placeholder}
            aria-describedby={`${id}-hint`}
            className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2 text-sm"
          />
        </div>
        <Button type="submit" variant="primary" disabled={start.isPending}>
          {start.isPending ? "Starting…" : `Import ${source}`}
        </Button>
      </form>
      <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
        {text.hint}
      </p>
      <AddCost />
      <div className="mt-3">
        {start.isError && <ErrorState message={start.error.message} />}
        {/* A new import starts a new progress (its own polling), the last one's result is replaced. */}
        {start.isSuccess && <ImportProgress key={start.data} id={start.data} source={source} />}
      </div>
    </>
  );
}

function ImportProgress({ id, source }: { id: string; source: ImportSource }) {
  const progress = useImportProgress(id);
  const cancel = useCancelImport(id);
  if (progress.isError) return <ErrorState message={progress.error.message} onRetry={() => void progress.refetch()} />;
  const status = progress.data?.status;
  const failed = status === "failed";
  const running = !progress.data || status === "queued" || status === "running";
  const tone = failed ? "bg-red-50 text-red-800" : running || status === "cancelled" ? "bg-slate-50 text-slate-800" : "bg-emerald-50 text-emerald-900";
  return (
    <div className="space-y-2">
      <p role="status" data-testid="import-progress" className={`flex items-center gap-2 rounded-md px-3 py-2 text-sm ${tone}`}>
        {running && <span aria-hidden="true" className="inline-block size-3 shrink-0 animate-spin rounded-full border-2 border-brand-600 border-t-transparent" />}
        {importProgressMessage(source, progress.data)}
      </p>
      {running && (
        <Button onClick={() => cancel.mutate()} disabled={cancel.isPending} className="py-1">
          {cancel.isPending ? "Cancelling…" : "Cancel import"}
        </Button>
      )}
      {cancel.isError && <ErrorState message={cancel.error.message} />}
    </div>
  );
}
