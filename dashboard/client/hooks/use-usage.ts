"use client";

import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { useCallback } from "react";
import { fetchJson } from "@/dashboard/client/fetch-json";
import { usageRangeFrom, type UsageAnswer, type UsageRange } from "@/dashboard/client/usage";

/**
 * Queries per day for the range in the URL's `?days=` (7, 30 or 90; 30 without one), so a range survives
 * reload and can be linked; `setRange` writes it back to the URL.
 */
export function useUsage() {
  const searchParams = useSearchParams();
  const days = usageRangeFrom(searchParams.get("days"));
  const query = useQuery({
    queryKey: ["usage", { days }],
    queryFn: () => fetchJson<UsageAnswer>(`/api/dashboard/usage?days=${days}`),
  });
  const setRange = useCallback(
    (range: UsageRange) => {
      const params = new URLSearchParams(searchParams);
      params.set("days", String(range));
      // The native history API updates useSearchParams without a server round trip (Next.js syncs with it).
      window.history.pushState(null, "", `?${params}`);
    },
    [searchParams],
  );
  return { days, setRange, query };
}
