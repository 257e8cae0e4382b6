import { useQuery } from "@tanstack/react-query";
import type { Leaders } from "@/dashboard/client/answers";
import { fetchJson } from "@/dashboard/client/fetch-json";

/** The overview's leader boards of tracked URLs; refreshed every five minutes (refreshes are hourly at most). */
export function useLeaders() {
  return useQuery({
    queryKey: ["tracked", "leaders"],
    queryFn: () => fetchJson<Leaders>("/api/dashboard/tracked/leaders"),
    refetchInterval: 5 * 60_000,
  });
}
