"use client";

import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { useRequestPages, useRequestView } from "@/dashboard/client/hooks/use-requests";
import { hasFilters, NO_FILTERS } from "@/dashboard/client/requests";
import { RequestDrawer } from "./request-drawer";
import { RequestFilterForm } from "./request-filters";
import { RequestsTable } from "./requests-table";

/** Every API request made with the account's key (the dashboard's too), newest first, filtered from the address. */
export function RequestsClient() {
  const { filters, openId, setFilters, open } = useRequestView();
  const pages = useRequestPages(filters);
  const rows = pages.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-xl font-semibold">Requests</h1>
        <p className="text-sm text-slate-600">Every API request made with your key, newest first, kept for 30 days unless your operator set otherwise. Open one to see its details.</p>
      </div>
      <Card>
        {/* Keyed by the filters: back and forward show their own in the form. */}
        <RequestFilterForm key={JSON.stringify(filters)} filters={filters} onChange={setFilters} />
      </Card>
      {pages.isPending ? (
        <LoadingState label="Loading requests…" className="h-96" />
      ) : pages.isError && rows.length === 0 ? (
        <ErrorState message={pages.error.message} onRetry={() => void pages.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState>
          {hasFilters(filters) ? (
            <>
              No request matches these filters.{" "}
              <button type="button" className="font-medium text-brand-700 hover:underline" onClick={() => setFilters(NO_FILTERS)}>
                Clear them
              </button>
            </>
          ) : (
            "No requests yet. Requests made with your API key show up here within a second."
          )}
        </EmptyState>
      ) : (
        <div className="space-y-3" aria-busy={pages.isFetching}>
          <RequestsTable rows={rows} onOpen={open} />
          {pages.isError && <ErrorState message={pages.error.message} onRetry={() => void pages.fetchNextPage()} />}
          <div className="flex items-center justify-between gap-3 text-sm text-slate-600">
            <span>
              {rows.length} {rows.length === 1 ? "request" : "requests"} shown
            </span>
            {pages.hasNextPage && (
              <Button onClick={() => void pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
                {pages.isFetchingNextPage ? "Loading…" : "Load more"}
              </Button>
            )}
          </div>
        </div>
      )}
      {openId && <RequestDrawer key={openId} id={openId} loaded={rows.find((row) => row.id === openId)} onClose={() => open(null)} />}
    </div>
  );
}
