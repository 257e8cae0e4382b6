import { useQuery } from "@tanstack/react-query";
import type { Overview } from "@/dashboard/client/answers";
import { fetchJson } from "@/dashboard/client/fetch-json";

export const OVERVIEW_KEY = ["overview"] as const;

/** Plan, today's quota, service status and a word on the keys; refreshed every minute so the quota stays current. */
export function useOverview(initialData: Overview | undefined) {
  return useQuery({
    queryKey: OVERVIEW_KEY,
    queryFn: () => fetchJson<Overview>("/api/dashboard/overview"),
    initialData,
    refetchInterval: 60_000,
  });
}
