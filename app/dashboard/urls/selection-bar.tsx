"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ErrorState } from "@/components/ui/states";
import { downloadFile } from "@/dashboard/client/download";
import { formatNumber } from "@/dashboard/client/format";
import { useRemoveUrls } from "@/dashboard/client/hooks/use-tracked";
import type { HeadlineNetwork } from "@/dashboard/client/tracked/networks";
import { trackedCsv, trackedCsvFilename } from "@/dashboard/client/tracked/tracked-csv";
import type { TrackedItem } from "@/dashboard/client/tracked/types";
import { displayUrl } from "@/lib/urls/display-url";
import { ConfirmDialog } from "../whitelist/confirm-dialog";

/** The confirmation names this many of the URLs to remove, and counts the rest. */
const NAMED = 10;

const urlsText = (n: number) => `${formatNumber(n)} URL${n === 1 ? "" : "s"}`;

/**
 * What can be done with the selected rows, whichever pages they are on: export them as CSV, or stop tracking
 * them after a confirmation that names them. The outcome is said here, and the rows removed leave the selection.
 */
export function SelectionBar({
  selected,
  networks,
  onClear,
  onRemoved,
}: {
  selected: readonly TrackedItem[];
  networks: readonly HeadlineNetwork[];
  onClear: () => void;
  onRemoved: (urls: readonly string[]) => void;
}) {
  const remove = useRemoveUrls();
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState(0);
  const count = selected.length;

  function exportCsv() {
    const csv = trackedCsv(selected, networks.map((network) => network.key));
    downloadFile(trackedCsvFilename(Date.now()), csv, "text/csv;charset=utf-8");
  }

  function confirmRemove() {
    setConfirming(false);
    setDone(0);
    remove.mutate({ urls: selected.map((row) => row.url), onProgress: setDone }, { onSuccess: (outcome) => onRemoved(outcome.removed) });
  }

  if (count === 0 && !remove.isPending && !remove.isSuccess) return null;
  return (
    <div className="mb-3 space-y-2">
      {count > 0 && (
        <div className="flex flex-wrap items-center gap-2 rounded-md bg-brand-50 px-3 py-2 text-sm" data-testid="selection-bar">
          <span className="mr-auto font-medium" aria-live="polite">
            {urlsText(count)} selected
          </span>
          <Button onClick={exportCsv} className="py-1">
            Export CSV
          </Button>
          <Button variant="danger-secondary" onClick={() => setConfirming(true)} disabled={remove.isPending} className="py-1">
            Remove…
          </Button>
          <Button onClick={onClear} className="py-1">
            Clear selection
          </Button>
        </div>
      )}
      <div aria-live="polite" className="text-sm">
        {remove.isPending && <p className="text-slate-700">Removing… {formatNumber(done)} of {formatNumber(remove.variables.urls.length)} done.</p>}
        {remove.isSuccess && remove.data.failed.length === 0 && <p className="text-slate-700">Stopped tracking {urlsText(remove.data.removed.length)}.</p>}
      </div>
      {remove.isSuccess && remove.data.failed.length > 0 && (
        <ErrorState
          message={`${urlsText(remove.data.failed.length)} could not be removed (${remove.data.failed[0]!.message}); they stay selected. ${formatNumber(remove.data.removed.length)} removed.`}
        />
      )}
      {remove.isError && <ErrorState message={`The URLs could not be removed: ${remove.error.message}`} />}
      <ConfirmDialog
        open={confirming}
        title={`Stop tracking ${urlsText(count)}?`}
        confirmLabel={`Stop tracking ${urlsText(count)}`}
        onConfirm={confirmRemove}
        onCancel={() => setConfirming(false)}
      >
        <ul className="space-y-1">
          {selected.slice(0, NAMED).map((row) => (
            <li key={row.url} className="break-all font-medium">
              {displayUrl(row.url)}
            </li>
          ))}
        </ul>
        {count > NAMED && <p className="mt-1">…and {urlsText(count - NAMED)} more.</p>}
        <p className="mt-2">They are no longer refreshed for this account and leave the list. You can track them again at any time.</p>
      </ConfirmDialog>
    </div>
  );
}
