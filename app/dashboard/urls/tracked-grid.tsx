"use client";

import { useMemo, type RefObject } from "react";
import { useNow } from "@/dashboard/client/hooks/use-now";
import type { HeadlineNetwork } from "@/dashboard/client/tracked/networks";
import type { TrackedItem, TrackedSort } from "@/dashboard/client/tracked/types";
import { SortHeader, type Ordering, type PageSelection } from "./sort-header";
import { tableMinRem, trackedColumns } from "./tracked-columns";
import { TrackedRow } from "./tracked-row";

/**
 * One page of tracked URLs as a table, in a region of its own that scrolls both ways (the header stays on
 * top, the checkbox and URL on the left). Rows carry their place in the whole list for screen readers.
 */
export function TrackedGrid({
  rows,
  firstIndex,
  total,
  networks,
  scroller,
  ordering,
  onSort,
  selected,
  selection,
  onSelect,
  onRemove,
  busy,
}: {
  rows: readonly TrackedItem[];
  /** The first row's place in the whole list (0-based). */
  firstIndex: number;
  /** Rows in the whole list, when known. */
  total: number | null;
  /** The networks the account shows: a column each. */
  networks: readonly HeadlineNetwork[];
  scroller: RefObject<HTMLDivElement | null>;
  ordering: Ordering;
  onSort: (sort: TrackedSort) => void;
  selected: ReadonlyMap<string, TrackedItem>;
  selection: PageSelection;
  onSelect: (row: TrackedItem) => void;
  onRemove: (url: string) => void;
  /** Showing the last rows while another sort, filter or search loads. */
  busy: boolean;
}) {
  const now = useNow();
  const columns = useMemo(() => trackedColumns(networks), [networks]);
  return (
    <div
      ref={scroller}
      role="region"
      aria-label="Tracked URLs (scrollable)"
      aria-busy={busy}
      tabIndex={0}
      // Positioned, so the cells' screen-reader text (absolutely placed) is clipped here rather than widening the page.
      className={`relative max-h-[36rem] overflow-auto rounded-md border border-slate-200 ${busy ? "opacity-60" : ""}`}
    >
      <table
        className="w-full table-fixed border-collapse text-sm"
        style={{ minWidth: `${tableMinRem(columns)}rem` }}
        aria-rowcount={total === null ? -1 : total + 1}
        data-testid="tracked-table"
      >
        <colgroup>
          {columns.map((column) => (
            // The URL's column takes what the others leave.
            <col key={column.key} style={column.key === "url" ? undefined : { width: `${column.rem}rem` }} />
          ))}
        </colgroup>
        <SortHeader columns={columns} ordering={ordering} onSort={onSort} selection={selection} />
        <tbody>
          {rows.map((row, i) => (
            <TrackedRow
              key={row.url}
              row={row}
              index={firstIndex + i}
              networks={networks}
              now={now}
              selected={selected.has(row.url)}
              onSelect={onSelect}
              onRemove={onRemove}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}
