"use client";

import { useEffect, useId, useRef, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { ErrorState, LoadingState } from "@/components/ui/states";
import { useRequestDetail } from "@/dashboard/client/hooks/use-requests";
import type { RequestEntry } from "@/dashboard/client/requests";
import { RequestStatus } from "./request-status";
import { formatTime } from "./requests-table";

/** One request's every field, in a panel at the side (a modal dialog: Escape and Close end it). */
export function RequestDrawer({ id, loaded, onClose }: { id: string; loaded: RequestEntry | undefined; onClose: () => void }) {
  const titleId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const detail = useRequestDetail(id, loaded);
  useEffect(() => {
    if (!dialog.current?.open) dialog.current?.showModal();
  }, []);
  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onClose={onClose}
      data-testid="request-drawer"
      className="fixed inset-y-0 right-0 left-auto m-0 h-dvh max-h-none w-[min(30rem,100vw)] max-w-none overflow-y-auto bg-white p-5 text-slate-900 shadow-xl backdrop:bg-slate-900/50 dark:backdrop:bg-slate-50/70"
    >
      <div className="mb-4 flex items-center justify-between gap-3">
        <h2 id={titleId} className="text-base font-semibold">
          Request
        </h2>
        <Button onClick={() => dialog.current?.close()}>Close</Button>
      </div>
      {detail.isError ? (
        <ErrorState message={detail.error.message} onRetry={() => void detail.refetch()} />
      ) : !detail.data ? (
        <LoadingState label="Loading the request…" className="h-64" />
      ) : (
        <RequestFields entry={detail.data} />
      )}
    </dialog>
  );
}

function RequestFields({ entry }: { entry: RequestEntry }) {
  const rows: [string, ReactNode][] = [
    ["Time", <time key="t" dateTime={entry.time}>{formatTime(entry.time)}</time>],
    ["Status", <RequestStatus key="s" status={entry.status} />],
    ["Method", entry.method],
    ["Path", <code key="p" className="break-all text-xs">{entry.path}</code>],
    ["Query", entry.query ? <code key="q" className="break-all text-xs">{entry.query}</code> : "—"],
    ["Error type", entry.error_type ? <code key="e" className="text-xs">{entry.error_type}</code> : "—"],
    ["Duration", `${entry.duration_ms} ms`],
    ["URL", entry.url ? <span key="u" className="break-all">{entry.url}</span> : "—"],
    ["Quota spent", entry.quota_spent],
    ["Key", entry.key_id ?? "—"],
    ["Network", entry.ip || "—"],
    ["User agent", entry.user_agent ? <span key="a" className="break-all">{entry.user_agent}</span> : "—"],
    ["Id", <code key="i" className="text-xs">{entry.id}</code>],
  ];
  return (
    <dl className="divide-y divide-slate-100 text-sm">
      {rows.map(([name, value]) => (
        <div key={name} className="grid grid-cols-[8rem_1fr] gap-3 py-2">
          <dt className="font-medium text-slate-600">{name}</dt>
          <dd className="min-w-0">{value}</dd>
        </div>
      ))}
      <p className="pt-3 text-xs text-slate-500">No API key is ever kept: apikey is removed from the query, and only the client&apos;s network (/24 or /48) is kept.</p>
    </dl>
  );
}
