"use client";

import { keepPreviousData, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { usePathname, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { fetchJson } from "@/dashboard/client/fetch-json";
import { parseRequestFilters, requestFilterParams, type RequestEntry, type RequestFilters, type RequestPage } from "@/dashboard/client/requests";

/**
 * The Requests page's filters and open request, read from the page's address and written back to it (so a
 * filtered view survives reload and can be linked). The native history API updates useSearchParams without a
 * server round trip (Next.js syncs with it).
 */
export function useRequestView() {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const filters = useMemo(() => parseRequestFilters(searchParams), [searchParams]);
  const openId = searchParams.get("request");
  const write = useCallback(
    (next: RequestFilters, open: string | null) => {
      const params = new URLSearchParams(requestFilterParams(next));
      if (open) params.set("request", open);
      const search = params.toString();
      window.history.pushState(null, "", `${pathname}${search ? `?${search}` : ""}`);
    },
    [pathname],
  );
  return {
    filters,
    openId: openId && /^req_[0-9a-z]{21}$/.test(openId) ? openId : null,
    setFilters: (next: RequestFilters) => write(next, null),
    open: (id: string | null) => write(filters, id),
  };
}

/** The account's requests matching `filters`, newest first, 50 at a time through the API's cursor. */
export function useRequestPages(filters: RequestFilters) {
  const params = requestFilterParams(filters);
  return useInfiniteQuery({
    queryKey: ["requests", params],
    queryFn: ({ pageParam, signal }) =>
      fetchJson<RequestPage>(`/api/dashboard/requests?${new URLSearchParams({ ...params, ...(pageParam ? { cursor: pageParam } : {}) })}`, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next_cursor,
    // New filters keep the last rows on screen until their own arrive, rather than flashing empty.
    placeholderData: keepPreviousData,
  });
}

/** One request, for the drawer: from the loaded list when there, else asked for (a link opened afresh). */
export function useRequestDetail(id: string | null, loaded: RequestEntry | undefined) {
  return useQuery({
    queryKey: ["request", id],
    queryFn: ({ signal }) => fetchJson<RequestEntry>(`/api/dashboard/requests/${encodeURIComponent(id!)}`, { signal }),
    enabled: id !== null && loaded === undefined,
    initialData: loaded,
  });
}
