"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { useMemo, useRef, useState } from "react";
import { RESULT_COLUMNS, sortResultRows, type BulkResultRow, type ResultColumnKey, type ResultSort } from "@/dashboard/client/bulk/results";
import { formatCount } from "../progress";

/** Every row has this height, so the virtualizer knows where each row is without measuring it. */
const ROW_HEIGHT = 36;

const COLUMNS: { key: ResultColumnKey; label: string }[] = [{ key: "url", label: "URL" }, ...RESULT_COLUMNS];

function Count({ value }: { value: number | null }) {
  return value === null ? <span className="text-xs italic text-slate-400">not reported</span> : <>{formatCount(value)}</>;
}

/**
 * The results, however many: only the rows in view are in the DOM (10,000 rows stay fast). Column headers
 * sort; numbers sort biggest first on the first press, and "not reported" always stays last.
 */
export function ResultsTable({ rows }: { rows: BulkResultRow[] }) {
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

  return (
    <div
      ref={scroller}
      role="region"
      aria-label="Results table (scrollable)"
      tabIndex={0}
      className="max-h-[32rem] overflow-auto rounded-md border border-slate-200"
    >
      <table className="w-full min-w-[46rem] table-fixed border-collapse text-sm" aria-rowcount={sorted.length + 1}>
        <colgroup>
          <col className="w-[34%]" />
          {RESULT_COLUMNS.map((column) => (
            <col key={column.key} />
          ))}
        </colgroup>
        <thead className="sticky top-0 z-10 bg-slate-100 text-left text-xs font-semibold text-slate-700">
          <tr aria-rowindex={1}>
            {COLUMNS.map((column) => (
              <th
                key={column.key}
                scope="col"
                aria-sort={sort?.column === column.key ? sort.direction : undefined}
                className={`border-b border-slate-200 p-0 ${column.key === "url" ? "" : "text-right"}`}
              >
                <button
                  type="button"
                  onClick={() => sortBy(column.key)}
                  className={`flex w-full items-center gap-1 px-3 py-2 hover:bg-slate-200 ${column.key === "url" ? "" : "justify-end"}`}
                >
                  {column.label}
                  <span aria-hidden="true" className="w-3 text-slate-500">
                    {sort?.column === column.key ? (sort.direction === "ascending" ? "▲" : "▼") : ""}
                  </span>
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {before > 0 && (
            <tr aria-hidden="true">
              <td colSpan={COLUMNS.length} style={{ height: before }} />
            </tr>
          )}
          {items.map((item) => {
            const row = sorted[item.index]!;
            return (
              <tr key={row.url} aria-rowindex={item.index + 2} style={{ height: ROW_HEIGHT }} className={item.index % 2 ? "bg-slate-50" : undefined}>
                <td className="truncate px-3" title={row.url}>
                  {row.url}
                </td>
                {RESULT_COLUMNS.map((column) => (
                  <td key={column.key} className="px-3 text-right tabular-nums">
                    <Count value={column.value(row.counts)} />
                  </td>
                ))}
              </tr>
            );
          })}
          {after > 0 && (
            <tr aria-hidden="true">
              <td colSpan={COLUMNS.length} style={{ height: after }} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
