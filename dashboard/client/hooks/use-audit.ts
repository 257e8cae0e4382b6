"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { useCallback } from "react";
import { fetchJson } from "@/dashboard/client/fetch-json";
import type { AuditPage } from "@/dashboard/client/audit/audit-answers";
import { auditFilterParams, auditFiltersFrom, type AuditFilters } from "@/dashboard/client/audit/audit-filters";

/**
 * The audit log for the filters in the URL (so a view survives reload and can be linked), newest first, 50
 * at a time; `setFilters` writes them back to the URL.
 */
export function useAudit() {
  const searchParams = useSearchParams();
  const filters = auditFiltersFrom(searchParams);
  const params = auditFilterParams(filters);
  const query = useInfiniteQuery({
    queryKey: ["audit", params],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => fetchJson<AuditPage>(`/api/dashboard/audit?${new URLSearchParams({ ...params, ...(pageParam ? { cursor: pageParam } : {}) })}`),
    getNextPageParam: (last) => last.next_cursor,
  });
  const setFilters = useCallback((next: AuditFilters) => {
    // The native history API updates useSearchParams without a server round trip (Next.js syncs with it).
    window.history.pushState(null, "", `?${new URLSearchParams(auditFilterParams(next))}`);
  }, []);
  return { filters, setFilters, query };
}
