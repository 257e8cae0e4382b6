"use client";

import { ScrollRegion } from "@/components/ui/scroll-region";
import type { RequestEntry } from "@/dashboard/client/requests";
import { RequestStatus } from "./request-status";

const timeLabel = new Intl.DateTimeFormat(undefined, { dateStyle: "short", timeStyle: "medium" });
export const formatTime = (iso: string) => timeLabel.format(Date.parse(iso));

/** The requests, newest first; a row opens its details. What was asked comes first: on a phone the rest scrolls. */
export function RequestsTable({ rows, onOpen }: { rows: RequestEntry[]; onOpen: (id: string) => void }) {
  return (
    // relative: the sr-only header is absolutely placed, and would widen the page from outside the scrolling box.
    <ScrollRegion label="Requests" className="relative overflow-x-auto rounded-md border border-slate-200">
      <table className="w-full min-w-[44rem] text-left text-sm">
        <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-600">
          <tr>
            {["Status", "Request", "Time", "Error", "Duration", "Quota"].map((name) => (
              <th key={name} scope="col" className="px-3 py-2 font-medium">
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={row.id} data-testid="request-row" className="hover:bg-slate-50">
              <td className="px-3 py-2">
                <RequestStatus status={row.status} />
              </td>
              <td className="max-w-md px-3 py-2">
                <button type="button" onClick={() => onOpen(row.id)} className="max-w-full truncate text-left font-mono text-xs text-brand-700 hover:underline">
                  <span className="font-semibold">{row.method}</span> {row.path}
                  {row.query ? `?${row.query}` : ""}
                </button>
              </td>
              <td className="px-3 py-2 whitespace-nowrap">
                <time dateTime={row.time}>{formatTime(row.time)}</time>
              </td>
              <td className="px-3 py-2">{row.error_type ? <code className="text-xs">{row.error_type}</code> : <span className="text-slate-500">—</span>}</td>
              <td className="px-3 py-2 whitespace-nowrap tabular-nums">{row.duration_ms} ms</td>
              <td className="px-3 py-2 tabular-nums">{row.quota_spent}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
