import { useQuery } from "@tanstack/react-query";
import type { AlertMark } from "@/dashboard/client/alerts/marks";
import { fetchJson } from "@/dashboard/client/fetch-json";

/** The spikes and milestones of the last `days` days (of `url` when given), for a chart's marks. */
export function useAlertMarks(days: number, url?: string) {
  const params = new URLSearchParams({ days: String(days), ...(url ? { url } : {}) });
  return useQuery({
    queryKey: ["alerts", "marks", days, url ?? null],
    queryFn: () => fetchJson<{ marks: AlertMark[] }>(`/api/dashboard/alerts/marks?${params}`).then((answer) => answer.marks),
    staleTime: 60_000,
  });
}
