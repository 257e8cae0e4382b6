"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { useMemo, useRef } from "react";
import type { NetworkId } from "@/lib/counts/all-networks";
import type { BulkResultRow, ResultColumnKey, ResultSort } from "@/dashboard/client/bulk/results";
import { headlineCount, headlineNetworks } from "@/dashboard/client/tracked/networks";
import { formatCount } from "../progress";
import { CopyUrlButton, UrlText } from "./url-cell";

/** Every row has this height, so the virtualizer knows where each row is without measuring it. */
const ROW_HEIGHT = 36;

/** Widths in rem: the URL's is the least it gets (it takes what the networks leave). */
const SELECT_REM = 2.75;
const URL_REM = 22;
const NETWORK_REM = 5.5;

/** The checkbox and the URL (left of it by SELECT_REM) stay in view while a wide table is scrolled sideways; not on a phone, where they would fill the screen. */
const STICKY_SELECT_CELL = "sm:sticky sm:left-0 sm:z-[1]";
const STICKY_URL_CELL = "sm:sticky sm:left-[2.75rem] sm:z-[1] sm:shadow-[inset_-1px_0_0_var(--color-slate-200)]";

function Count({ value }: { value: number | null }) {
  return value === null ? <span className="whitespace-nowrap text-xs italic text-slate-600">not reported</span> : <>{formatCount(value)}</>;
}

export interface RowSelection {
  selected: ReadonlySet<string>;
  /** Selects (`on`) or clears these rows' URLs. */
  set: (urls: readonly string[], on: boolean) => void;
}

/**
 * The results, however many (`sorted` by `sort`): only the rows in view are in the DOM (10,000 rows stay fast).
 * A checkbox, the URL with its copy button, then one column per network of the job with its headline number.
 * Column headers sort; numbers sort biggest first on the first press, and "not reported" always stays last.
 */
export function ResultsTable({
  sorted,
  sort,
  onSort,
  networks,
  selection,
  onCopied,
}: {
  sorted: BulkResultRow[];
  sort: ResultSort | null;
  onSort: (sort: ResultSort) => void;
  networks: readonly NetworkId[];
  selection: RowSelection;
  onCopied: (message: string) => void;
}) {
  const columns = useMemo(() => headlineNetworks(networks), [networks]);
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
  const chosen = sorted.filter((row) => selection.selected.has(row.url)).length;

  function sortBy(column: ResultColumnKey) {
    onSort(
      sort?.column === column
        ? { column, direction: sort.direction === "ascending" ? "descending" : "ascending" }
        : { column, direction: column === "url" ? "ascending" : "descending" },
    );
  }

  const arrow = (column: ResultColumnKey) => (
    <span aria-hidden="true" className="w-3 shrink-0 text-slate-500">
      {sort?.column === column ? (sort.direction === "ascending" ? "▲" : "▼") : ""}
    </span>
  );

  return (
    <ScrollRegion ref={scroller} label="Results table (scrollable)" className="max-h-[32rem] overflow-auto rounded-md border border-slate-200">
      <table
        className="w-full table-fixed border-collapse text-sm"
        style={{ minWidth: `${SELECT_REM + URL_REM + columns.length * NETWORK_REM}rem` }}
        aria-rowcount={sorted.length + 1}
      >
        <colgroup>
          <col style={{ width: `${SELECT_REM}rem` }} />
          <col />
          {columns.map((network) => (
            <col key={network.key} style={{ width: `${NETWORK_REM}rem` }} />
          ))}
        </colgroup>
        <thead className="sticky top-0 z-10 bg-slate-100 text-left text-xs font-semibold leading-tight text-slate-700">
          <tr aria-rowindex={1}>
            <th scope="col" className={`border-b border-slate-200 bg-slate-100 text-center ${STICKY_SELECT_CELL}`}>
              <input
                type="checkbox"
                aria-label={`Select all ${formatCount(sorted.length)} URLs`}
                checked={sorted.length > 0 && chosen === sorted.length}
                ref={(box) => {
                  if (box) box.indeterminate = chosen > 0 && chosen < sorted.length;
                }}
                onChange={(event) => selection.set(sorted.map((row) => row.url), event.target.checked)}
                className="h-4 w-4 accent-brand-600"
              />
            </th>
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
              <td colSpan={columns.length + 2} style={{ height: before }} />
            </tr>
          )}
          {items.map((item) => {
            const row = sorted[item.index]!;
            const selected = selection.selected.has(row.url);
            return (
              // A background of its own on every row: the sticky cells, over the others, take it on.
              <tr
                key={row.url}
                aria-rowindex={item.index + 2}
                style={{ height: ROW_HEIGHT }}
                className={selected ? "bg-brand-50" : item.index % 2 ? "bg-slate-50" : "bg-white"}
              >
                <td className={`bg-inherit text-center ${STICKY_SELECT_CELL}`}>
                  <input
                    type="checkbox"
                    aria-label={`Select ${row.url}`}
                    checked={selected}
                    onChange={(event) => selection.set([row.url], event.target.checked)}
                    className="h-4 w-4 accent-brand-600"
                  />
                </td>
                <td className={`bg-inherit pl-3 pr-1 ${STICKY_URL_CELL}`}>
                  <span className="flex items-center gap-1">
                    <UrlText url={row.url} />
                    <CopyUrlButton url={row.url} onCopied={onCopied} />
                  </span>
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
              <td colSpan={columns.length + 2} style={{ height: after }} />
            </tr>
          )}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
