"use client";

import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { useCallback } from "react";
import { fetchJson } from "@/dashboard/client/fetch-json";
import { usageRangeFrom, usageRangeParams, type UsageAnswer, type UsageRange } from "@/dashboard/client/usage";

/**
 * Queries served and refused per day for the range in the URL (`?days=7|30|90`, or `?from=&to=`; the last
 * 30 days without one), so a range survives reload and can be linked; `setRange` writes it back to the URL.
 */
export function useUsage() {
  const searchParams = useSearchParams();
  const range = usageRangeFrom(searchParams);
  const rangeParams = usageRangeParams(range);
  const query = useQuery({
    queryKey: ["usage", rangeParams],
    queryFn: () => fetchJson<UsageAnswer>(`/api/dashboard/usage?${new URLSearchParams(rangeParams)}`),
  });
  const setRange = useCallback(
    (next: UsageRange) => {
      const params = new URLSearchParams(searchParams);
      for (const name of ["days", "from", "to"]) params.delete(name);
      for (const [name, value] of Object.entries(usageRangeParams(next))) params.set(name, value);
      // The native history API updates useSearchParams without a server round trip (Next.js syncs with it).
      window.history.pushState(null, "", `?${params}`);
    },
    [searchParams],
  );
  return { range, setRange, query };
}
