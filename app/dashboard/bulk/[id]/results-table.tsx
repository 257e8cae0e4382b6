"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { useMemo, useRef, useState } from "react";
import type { NetworkId } from "@/lib/counts/all-networks";
import { sortResultRows, type BulkResultRow, type ResultColumnKey, type ResultSort } from "@/dashboard/client/bulk/results";
import { headlineCount, headlineNetworks } from "@/dashboard/client/tracked/networks";
import { STICKY_URL_CELL } from "../../urls/tracked-columns";
import { formatCount } from "../progress";

/** Every row has this height, so the virtualizer knows where each row is without measuring it. */
const ROW_HEIGHT = 36;

/** Widths in rem: the URL's is the least it gets (it takes what the networks leave). */
const URL_REM = 14;
const NETWORK_REM = 5.5;

function Count({ value }: { value: number | null }) {
  return value === null ? <span className="whitespace-nowrap text-xs italic text-slate-400">not reported</span> : <>{formatCount(value)}</>;
}

/**
 * The results, however many: only the rows in view are in the DOM (10,000 rows stay fast). After the URL, one
 * column per network of the job with its headline number. Column headers sort; numbers sort biggest first on
 * the first press, and "not reported" always stays last.
 */
export function ResultsTable({ rows, networks }: { rows: BulkResultRow[]; networks: readonly NetworkId[] }) {
  const columns = useMemo(() => headlineNetworks(networks), [networks]);
  const [sort, setSort] = useState<ResultSort | null>(null);
  const sorted = useMemo(() => (sort ? sortResultRows(rows, sort) : rows), [rows, sort]);
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: sorted.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const before = items[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);

  function sortBy(column: ResultColumnKey) {
    setSort((current) =>
      current?.column === column
        ? { column, direction: current.direction === "ascending" ? "descending" : "ascending" }
        : { column, direction: column === "url" ? "ascending" : "descending" },
    );
  }

  const arrow = (column: ResultColumnKey) => (
    <span aria-hidden="true" className="w-3 shrink-0 text-slate-500">
      {sort?.column === column ? (sort.direction === "ascending" ? "▲" : "▼") : ""}
    </span>
  );

  return (
    <div
      ref={scroller}
      role="region"
      aria-label="Results table (scrollable)"
      tabIndex={0}
      className="max-h-[32rem] overflow-auto rounded-md border border-slate-200"
    >
      <table
        className="w-full table-fixed border-collapse text-sm"
        style={{ minWidth: `${URL_REM + columns.length * NETWORK_REM}rem` }}
        aria-rowcount={sorted.length + 1}
      >
        <colgroup>
          <col />
          {columns.map((network) => (
            <col key={network.key} style={{ width: `${NETWORK_REM}rem` }} />
          ))}
        </colgroup>
        <thead className="sticky top-0 z-10 bg-slate-100 text-left text-xs font-semibold leading-tight text-slate-700">
          <tr aria-rowindex={1}>
            <th scope="col" aria-sort={sort?.column === "url" ? sort.direction : undefined} className={`border-b border-slate-200 bg-slate-100 p-0 ${STICKY_URL_CELL}`}>
              <button type="button" onClick={() => sortBy("url")} className="flex w-full items-center gap-1 px-3 py-2 hover:bg-slate-200">
                URL
                {arrow("url")}
              </button>
            </th>
            {columns.map((network) => (
              <th
                key={network.key}
                scope="col"
                aria-sort={sort?.column === network.key ? sort.direction : undefined}
                className="border-b border-slate-200 p-0 text-right"
              >
                <button
                  type="button"
                  onClick={() => sortBy(network.key)}
                  className="flex w-full items-center justify-end gap-1 px-2 py-2 text-right hover:bg-slate-200"
                >
                  <span>
                    {network.label}
                    {/* A network with one number needs no word for it. */}
                    {network.fields.length > 0 && <span className="font-normal text-slate-600"> {network.measure}</span>}
                  </span>
                  {arrow(network.key)}
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {before > 0 && (
            <tr aria-hidden="true">
              <td colSpan={columns.length + 1} style={{ height: before }} />
            </tr>
          )}
          {items.map((item) => {
            const row = sorted[item.index]!;
            return (
              // A background of its own on every row: the URL cell, sticky over the others, takes it on.
              <tr key={row.url} aria-rowindex={item.index + 2} style={{ height: ROW_HEIGHT }} className={item.index % 2 ? "bg-slate-50" : "bg-white"}>
                <td className={`truncate bg-inherit px-3 ${STICKY_URL_CELL}`} title={row.url}>
                  {row.url}
                </td>
                {columns.map((network) => (
                  <td key={network.key} className="px-2 text-right tabular-nums">
                    <Count value={headlineCount(row.networks, network.key)} />
                  </td>
                ))}
              </tr>
            );
          })}
          {after > 0 && (
            <tr aria-hidden="true">
              <td colSpan={columns.length + 1} style={{ height: after }} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
