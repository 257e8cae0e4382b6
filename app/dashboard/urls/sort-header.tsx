"use client";

import type { SortOrder, TrackedSort } from "@/dashboard/client/tracked/types";
import { STICKY_SELECT_CELL, STICKY_URL_CELL, type Column } from "./tracked-columns";

export interface Ordering {
  sort: TrackedSort;
  order: SortOrder;
}

/** The page's rows selected: none, some or all of them (the box then shows a dash). */
export interface PageSelection {
  state: "none" | "some" | "all";
  onToggle: () => void;
}

/** The column headings; the sortable ones are buttons, and the sorted one says which way. */
export function SortHeader({
  columns,
  ordering,
  onSort,
  selection,
}: {
  columns: readonly Column[];
  ordering: Ordering;
  onSort: (sort: TrackedSort) => void;
  selection: PageSelection;
}) {
  return (
    <thead className="sticky top-0 z-10 bg-slate-100 text-left text-xs font-semibold text-slate-700">
      <tr aria-rowindex={1}>
        {columns.map((column) => (
          <th
            key={column.key}
            scope="col"
            title={column.title}
            aria-sort={column.sort && ordering.sort === column.sort ? (ordering.order === "asc" ? "ascending" : "descending") : undefined}
            className={`border-b border-slate-200 bg-slate-100 leading-tight ${column.sort ? "p-0" : "px-2 py-2"} ${column.numeric ? "text-right" : ""} ${
              column.key === "url" ? STICKY_URL_CELL : column.key === "select" ? STICKY_SELECT_CELL : ""
            }`}
          >
            {column.key === "select" ? (
              <input
                type="checkbox"
                aria-label="Select every URL on this page"
                checked={selection.state === "all"}
                ref={(box) => {
                  if (box) box.indeterminate = selection.state === "some";
                }}
                onChange={selection.onToggle}
                className="size-4 align-middle accent-brand-600"
              />
            ) : column.key === "remove" ? (
              <span className="sr-only">Remove</span>
            ) : column.sort ? (
              <button
                type="button"
                onClick={() => onSort(column.sort!)}
                className={`flex w-full items-center gap-1 px-2 py-2 text-left hover:bg-slate-200 ${column.numeric ? "justify-end text-right" : ""}`}
              >
                {column.label}
                <span aria-hidden="true" className="w-3 text-slate-500">
                  {ordering.sort === column.sort ? (ordering.order === "asc" ? "▲" : "▼") : ""}
                </span>
              </button>
            ) : (
              column.label
            )}
          </th>
        ))}
      </tr>
    </thead>
  );
}
