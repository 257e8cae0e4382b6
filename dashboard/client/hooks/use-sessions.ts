import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { SessionSummary } from "@/lib/sessions/sessions";
import { fetchJson } from "@/dashboard/client/fetch-json";

export const SESSIONS_KEY = ["sessions"] as const;

/** This account's signed-in browsers. */
export function useSessions(initialData: SessionSummary[] | undefined) {
  return useQuery({
    queryKey: SESSIONS_KEY,
    queryFn: () => fetchJson<SessionSummary[]>("/api/dashboard/sessions"),
    initialData,
  });
}

/** Signs out one session (`id`) or every session but this one (`"others"`). */
export function useSignOutSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (target: { id: string } | "others") =>
      target === "others"
        ? fetchJson<{ signedOut: number }>("/api/dashboard/sessions?scope=others", { method: "DELETE" })
        : fetchJson<{ signedOut: number }>(`/api/dashboard/sessions/${encodeURIComponent(target.id)}`, { method: "DELETE" }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
}
