"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useMemo, useRef, useState, type RefObject } from "react";
import { Card } from "@/components/ui/card";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { formatNumber } from "@/dashboard/client/format";
import { useNow } from "@/dashboard/client/hooks/use-now";
import { useShownNetworks } from "@/dashboard/client/hooks/use-shown-networks";
import { useRemoveUrl, useTrackedList, type TrackedListQuery } from "@/dashboard/client/hooks/use-tracked";
import type { HeadlineNetwork } from "@/dashboard/client/tracked/networks";
import type { TrackedItem, TrackedSort } from "@/dashboard/client/tracked/types";
import { ConfirmDialog } from "../whitelist/confirm-dialog";
import { SortHeader, type Ordering } from "./sort-header";
import { tableMinRem, trackedColumns } from "./tracked-columns";
import { ROW_HEIGHT, TrackedRow } from "./tracked-row";

/** The next page is asked for when the last row drawn is this close to the end of the loaded ones. */
const PREFETCH_ROWS = 50;
const SEARCH_DEBOUNCE_MS = 300;

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/**
 * The account's tracked URLs, however many: pages of 200 load as the reader scrolls near the end, and only the
 * rows in view are in the DOM. Sorting and searching happen on the server, over every tracked URL.
 */
export function TrackedTable() {
  const [ordering, setOrdering] = useState<Ordering>({ sort: "added", order: "desc" });
  const [search, setSearch] = useState("");
  const q = useDebounced(search.trim(), SEARCH_DEBOUNCE_MS);
  const [filter, setFilter] = useState<TrackedListQuery["filter"]>("");
  const list = useTrackedList({ ...ordering, q, filter });
  const networks = useShownNetworks();
  const rows = useMemo(() => list.data?.pages.flatMap((page) => page.data) ?? [], [list.data]);
  const remove = useRemoveUrl();
  const [removing, setRemoving] = useState<string | null>(null);
  const scroller = useRef<HTMLDivElement>(null);

  // Another order or search starts at its top (in a block: newer browsers' scrollTo returns a promise, not a cleanup).
  useEffect(() => {
    scroller.current?.scrollTo({ top: 0 });
  }, [ordering, q, filter]);

  function sortBy(sort: TrackedSort) {
    setOrdering((current) => ({ sort, order: current.sort === sort && current.order === "desc" ? "asc" : "desc" }));
  }

  function confirmRemove() {
    const url = removing!;
    setRemoving(null);
    remove.mutate(url, { onSuccess: () => scroller.current?.focus() });
  }

  return (
    <Card
      title="Tracked URLs"
      actions={
        <div className="flex w-full flex-wrap gap-2 sm:w-auto">
          <select
            value={filter}
            onChange={(event) => setFilter(event.target.value as TrackedListQuery["filter"])}
            aria-label="Show"
            className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm"
            data-testid="tracked-filter"
          >
            <option value="">All URLs</option>
            <option value="growing">Growing this week</option>
            <option value="uncounted">Not counted yet</option>
          </select>
          <input
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            aria-label="Search tracked URLs"
            placeholder="Search URLs"
            maxLength={200}
            className="min-w-0 flex-1 rounded-md border border-slate-300 px-3 py-1.5 text-sm sm:w-64 sm:flex-none"
          />
        </div>
      }
    >
      {remove.isError && (
        <div className="mb-3">
          <ErrorState message={`The URL could not be removed: ${remove.error.message}`} />
        </div>
      )}
      {list.isError && rows.length === 0 ? (
        <ErrorState message={list.error.message} onRetry={() => void list.refetch()} />
      ) : !networks.shown && networks.isError ? (
        <ErrorState message={`The networks to show could not be loaded: ${networks.error?.message}`} onRetry={() => void networks.refetch()} />
      ) : list.isPending || !networks.shown ? (
        <LoadingState label="Loading tracked URLs…" className="h-64" />
      ) : rows.length === 0 ? (
        q || filter ? (
          <EmptyState>
            No tracked URL {filter === "growing" ? "grew this week" : filter === "uncounted" ? "waits for its first count" : ""}
            {filter && q ? " and " : ""}
            {q ? <>contains “{q}”</> : null}.
          </EmptyState>
        ) : (
          <EmptyState>
            <p>No URLs are tracked yet.</p>
            <p className="mt-1">
              <a href="#add-urls" className="font-medium text-brand-700 underline">
                Add some above
              </a>{" "}
              — paste them, upload a file, or import a sitemap or feed — and their counts are kept from then on.
            </p>
          </EmptyState>
        )
      ) : (
        <>
          <VirtualRows
            rows={rows}
            networks={networks.shown}
            scroller={scroller}
            ordering={ordering}
            onSort={sortBy}
            onRemove={setRemoving}
            complete={!list.hasNextPage}
            busy={list.isPlaceholderData}
            onNearEnd={() => {
              if (list.hasNextPage && !list.isFetchingNextPage && !list.isFetchNextPageError) void list.fetchNextPage();
            }}
          />
          <div className="mt-2 min-h-5 text-sm text-slate-600" aria-live="polite">
            {list.isFetchNextPageError ? (
              <ErrorState message={`More URLs could not be loaded: ${list.error?.message}`} onRetry={() => void list.fetchNextPage()} />
            ) : list.isFetchingNextPage ? (
              "Loading more URLs…"
            ) : (
              `${formatNumber(rows.length)}${list.hasNextPage ? "+" : ""} URL${rows.length === 1 ? "" : "s"}${q ? ` containing “${q}”` : ""}`
            )}
          </div>
        </>
      )}
      <ConfirmDialog
        open={removing !== null}
        title="Stop tracking this URL?"
        confirmLabel="Stop tracking"
        onConfirm={confirmRemove}
        onCancel={() => setRemoving(null)}
      >
        <p className="break-all font-medium">{removing}</p>
        <p className="mt-2">It is no longer refreshed for this account and leaves this list. You can track it again at any time.</p>
      </ConfirmDialog>
    </Card>
  );
}

function VirtualRows({
  rows,
  networks,
  scroller,
  ordering,
  onSort,
  onRemove,
  onNearEnd,
  complete,
  busy,
}: {
  rows: TrackedItem[];
  /** The networks the account shows: a column each. */
  networks: readonly HeadlineNetwork[];
  scroller: RefObject<HTMLDivElement | null>;
  ordering: Ordering;
  onSort: (sort: TrackedSort) => void;
  onRemove: (url: string) => void;
  onNearEnd: () => void;
  /** Every page is loaded, so the row count is known. */
  complete: boolean;
  /** Showing the last rows while another sort or search loads. */
  busy: boolean;
}) {
  const now = useNow();
  const columns = useMemo(() => trackedColumns(networks), [networks]);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const before = items[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  const lastDrawn = items.at(-1)?.index ?? -1;

  useEffect(() => {
    if (lastDrawn >= rows.length - PREFETCH_ROWS) onNearEnd();
  }, [lastDrawn, rows.length, onNearEnd]);

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
        aria-rowcount={complete ? rows.length + 1 : -1}
        data-testid="tracked-table"
      >
        <colgroup>
          {columns.map((column) => (
            // The URL's column takes what the others leave.
            <col key={column.key} style={column.key === "url" ? undefined : { width: `${column.rem}rem` }} />
          ))}
        </colgroup>
        <SortHeader columns={columns} ordering={ordering} onSort={onSort} />
        <tbody>
          {before > 0 && (
            <tr aria-hidden="true">
              <td colSpan={columns.length} style={{ height: before }} />
            </tr>
          )}
          {items.map((item) => {
            const row = rows[item.index]!;
            return <TrackedRow key={row.url} row={row} index={item.index} networks={networks} now={now} onRemove={onRemove} />;
          })}
          {after > 0 && (
            <tr aria-hidden="true">
              <td colSpan={columns.length} style={{ height: after }} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
