"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Card } from "@/components/ui/card";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { formatNumber } from "@/dashboard/client/format";
import { useListParams } from "@/dashboard/client/hooks/use-list-params";
import { useShownNetworks } from "@/dashboard/client/hooks/use-shown-networks";
import { useRemoveUrl, useTrackedList, useTrackedStatus } from "@/dashboard/client/hooks/use-tracked";
import { changeList, TRACKED_PAGE_SIZE, type ListParams } from "@/dashboard/client/tracked/list-params";
import type { TrackedItem } from "@/dashboard/client/tracked/types";
import { displayUrl } from "@/lib/urls/display-url";
import { ConfirmDialog } from "../whitelist/confirm-dialog";
import { ListPager } from "./list-pager";
import { ListSearch } from "./list-search";
import { SelectionBar } from "./selection-bar";
import { TrackedGrid } from "./tracked-grid";

/**
 * The account's tracked URLs, a page of 100 at a time, sorted, filtered and searched on the server over every
 * tracked URL. Sort, filter, search and page live in the page's address (useListParams). Rows selected on any
 * page can be exported or removed together.
 */
export function TrackedTable() {
  const { params, go, href } = useListParams();
  const { sort, order, q, filter, page } = params;
  const list = useTrackedList({ sort, order, q, filter });
  const networks = useShownNetworks();
  const status = useTrackedStatus();
  const remove = useRemoveUrl();
  const [removing, setRemoving] = useState<string | null>(null);
  const [selected, setSelected] = useState<ReadonlyMap<string, TrackedItem>>(new Map());
  const scroller = useRef<HTMLDivElement>(null);

  const pages = list.data?.pages ?? [];
  const rows = useMemo(() => pages[page - 1]?.data ?? [], [pages, page]);
  const settled = list.isSuccess && !list.isPlaceholderData;
  // The API pages by cursor: a page past those loaded (Next, a shared link) is reached through the ones before it.
  const walking = settled && pages.length < page && list.hasNextPage;
  // Not while the loaded pages are asked again (a new URL's first count): that would be cancelled, or cancel it.
  const { isFetching, isFetchNextPageError, fetchNextPage } = list;
  useEffect(() => {
    if (walking && !isFetching && !isFetchNextPageError) void fetchNextPage();
  }, [walking, isFetching, isFetchNextPageError, fetchNextPage]);
  const pastEnd = settled && pages.length < page && !list.hasNextPage;
  // How many rows in all: the tracked count without a search or filter, or what the pages hold once the last is loaded.
  const loadedRows = (pages.length - 1) * TRACKED_PAGE_SIZE + (pages.at(-1)?.data.length ?? 0);
  const total = !q && !filter && status.isSuccess ? status.data.tracked : settled && !list.hasNextPage ? loadedRows : null;

  // Another page, order, filter or search starts at its top (in a block: newer browsers' scrollTo returns a promise).
  useEffect(() => {
    scroller.current?.scrollTo({ top: 0 });
  }, [params]);

  const change = (next: Parameters<typeof changeList>[1]) => go(changeList(params, next), "push");
  const search = useCallback((text: string) => go(changeList(params, { q: text }), "replace"), [go, params]);

  function toggle(row: TrackedItem) {
    setSelected((current) => {
      const next = new Map(current);
      if (!next.delete(row.url)) next.set(row.url, row);
      return next;
    });
  }

  function togglePage() {
    const all = rows.every((row) => selected.has(row.url));
    setSelected((current) => {
      const next = new Map(current);
      for (const row of rows) {
        if (all) next.delete(row.url);
        else next.set(row.url, row);
      }
      return next;
    });
  }

  function dropSelected(urls: readonly string[]) {
    setSelected((current) => {
      const next = new Map(current);
      for (const url of urls) next.delete(url);
      return next;
    });
  }

  function confirmRemove() {
    const url = removing!;
    setRemoving(null);
    remove.mutate(url, {
      onSuccess: () => {
        dropSelected([url]);
        scroller.current?.focus();
      },
    });
  }

  const onPage = rows.filter((row) => selected.has(row.url)).length;
  return (
    <Card
      title="Tracked URLs"
      actions={
        <div className="flex w-full flex-wrap gap-2 sm:w-auto">
          <select
            value={filter}
            onChange={(event) => change({ filter: event.target.value as ListParams["filter"] })}
            aria-label="Show"
            className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm"
            data-testid="tracked-filter"
          >
            <option value="">All URLs</option>
            <option value="growing">Growing this week</option>
            <option value="uncounted">Not counted yet</option>
          </select>
          <ListSearch q={q} onSearch={search} />
        </div>
      }
    >
      {networks.shown && (
        <SelectionBar selected={[...selected.values()]} networks={networks.shown} onClear={() => setSelected(new Map())} onRemoved={dropSelected} />
      )}
      {remove.isError && (
        <div className="mb-3">
          <ErrorState message={`The URL could not be removed: ${remove.error.message}`} />
        </div>
      )}
      {list.isError && rows.length === 0 ? (
        <ErrorState message={list.error.message} onRetry={() => void list.refetch()} />
      ) : !networks.shown && networks.isError ? (
        <ErrorState message={`The networks to show could not be loaded: ${networks.error?.message}`} onRetry={() => void networks.refetch()} />
      ) : list.isPending || !networks.shown || (rows.length === 0 && walking) ? (
        <LoadingState label="Loading tracked URLs…" className="h-64" />
      ) : pastEnd && page > 1 ? (
        <EmptyState>
          <p>Page {formatNumber(page)} is past the end of the list.</p>
          <a
            href={href({ ...params, page: 1 })}
            onClick={(event) => {
              event.preventDefault();
              change({ page: 1 });
            }}
            className="mt-1 inline-block font-medium text-brand-700 underline"
          >
            Go to the first page
          </a>
        </EmptyState>
      ) : rows.length === 0 ? (
        <NoRows q={q} filter={filter} />
      ) : (
        <>
          <TrackedGrid
            rows={rows}
            firstIndex={(page - 1) * TRACKED_PAGE_SIZE}
            total={total}
            networks={networks.shown}
            scroller={scroller}
            ordering={{ sort, order }}
            onSort={(column) => change({ sort: column })}
            selected={selected}
            selection={{ state: onPage === 0 ? "none" : onPage === rows.length ? "all" : "some", onToggle: togglePage }}
            onSelect={toggle}
            onRemove={setRemoving}
            busy={list.isPlaceholderData}
          />
          <div className="mt-2 flex flex-wrap items-center justify-between gap-2">
            <p className="text-sm text-slate-600" aria-live="polite" data-testid="list-range">
              {formatNumber((page - 1) * TRACKED_PAGE_SIZE + 1)}–{formatNumber((page - 1) * TRACKED_PAGE_SIZE + rows.length)}
              {total !== null && ` of ${formatNumber(total)}`} URL{total === 1 ? "" : "s"}
              {q ? ` containing “${q}”` : ""}
            </p>
            <ListPager
              page={page}
              pages={total === null ? null : Math.max(1, Math.ceil(total / TRACKED_PAGE_SIZE))}
              hasNext={pages.length > page || Boolean(list.hasNextPage)}
              hrefOf={(to) => href({ ...params, page: to })}
              onGo={(to) => change({ page: to })}
            />
          </div>
          {list.isFetchNextPageError && <ErrorState message={`The next page could not be loaded: ${list.error?.message}`} onRetry={() => void list.fetchNextPage()} />}
        </>
      )}
      <ConfirmDialog
        open={removing !== null}
        title="Stop tracking this URL?"
        confirmLabel="Stop tracking"
        onConfirm={confirmRemove}
        onCancel={() => setRemoving(null)}
      >
        <p className="break-all font-medium">{removing && displayUrl(removing)}</p>
        <p className="mt-2">It is no longer refreshed for this account and leaves this list. You can track it again at any time.</p>
      </ConfirmDialog>
    </Card>
  );
}

function NoRows({ q, filter }: { q: string; filter: ListParams["filter"] }) {
  if (!q && !filter) {
    return (
      <EmptyState>
        <p>No URLs are tracked yet.</p>
        <p className="mt-1">
          <a href="#add-urls" className="font-medium text-brand-700 underline">
            Add some above
          </a>{" "}
          — paste them, upload a file, or import a sitemap or feed — and their counts are kept from then on.
        </p>
      </EmptyState>
    );
  }
  return (
    <EmptyState>
      No tracked URL {filter === "growing" ? "grew this week" : filter === "uncounted" ? "waits for its first count" : ""}
      {filter && q ? " and " : ""}
      {q ? <>contains “{q}”</> : null}.
    </EmptyState>
  );
}
